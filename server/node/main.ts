import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config';
import { migrate } from '../db/migrate';
import type { Database } from '../db/types';
import { openDataDir } from './data-dir';

/** Fails the start with one clear line (no stack trace) for anything the operator of the server can fix. */
function die(line: string): never {
  process.stderr.write(`zhanggui: ${line}\n`);
  process.exit(1);
}

const since = (t0: number) => Math.round(performance.now() - t0);

/**
 * A start: the settings, then at once the database (PGlite: its wasm, then recovering the data directory) and the
 * app's modules (every route and its OpenAPI schemas, most of the server's code, in ./serve), then the migrations
 * (one read when none is pending), then ./serve: the first admin, the seed, the app, listening. The phases (ms) are
 * logged with "Zhanggui is serving"; `boot` is Node's own start and this file's imports.
 */
export async function main() {
  const phases: Record<string, number> = { boot: Math.round(performance.now()) };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) die(err.message);
    throw err;
  }
  const logger = pino({ level: config.logLevel, base: undefined });

  const t0 = performance.now();
  const rest = import('./serve').then((m) => {
    phases.modules = since(t0);
    return m;
  });
  rest.catch(() => {}); // reported where it is awaited, after the database's own errors
  let database: Database;
  const where = config.databaseUrl ? new URL(config.databaseUrl).host : resolve(config.dataDir);
  try {
    database = config.databaseUrl
      ? await (await import('./postgres')).openPostgres(config.databaseUrl, undefined, logger)
      : await openDataDir(resolve(config.dataDir));
  } catch (err) {
    die(`cannot open the database at ${where}: ${(err as Error).message}`);
  }
  phases.database = since(t0);
  const t1 = performance.now();
  const applied = await migrate(database.db);
  phases.migrate = since(t1);
  const { serve } = await rest;
  await serve({
    database,
    config,
    logger,
    where,
    applied,
    phases,
    clientRoot: fileURLToPath(new URL('../client', import.meta.url)),
    die,
  });
}

main().catch((err) => die((err as Error).message));
