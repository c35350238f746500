import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import pino from 'pino';
import { createApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { forwardedClient } from '../core/client-address';
import { systemClock } from '../core/clock';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import type { Database } from '../db/types';
import { imageCipher } from '../modules/images/cipher';
import { ensureFirstAdmin } from '../modules/operators';
import { seed } from '../seed';
import { startDomainHealthTimer } from './domain-health';
import { fileImageStorage } from './image-storage';
import { openPostgres } from './postgres';
import { ip2regionLookup } from './region';
import { startRollupTimer } from './rollup';
import { createRoot } from './root';

/** Fails the start with one clear line (no stack trace) for anything the operator of the server can fix. */
function die(line: string): never {
  process.stderr.write(`zhanggui: ${line}\n`);
  process.exit(1);
}

export async function main() {
  const started = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) die(err.message);
    throw err;
  }
  const logger = pino({ level: config.logLevel, base: undefined });

  let database: Database;
  const where = config.databaseUrl ? new URL(config.databaseUrl).host : resolve(config.dataDir);
  try {
    database = config.databaseUrl
      ? await openPostgres(config.databaseUrl, 10, logger)
      : await openPglite(resolve(config.dataDir));
  } catch (err) {
    die(`cannot open the database at ${where}: ${(err as Error).message}`);
  }
  const applied = await migrate(database.db);
  const first = await ensureFirstAdmin(database.db, config);
  if (first?.generated) {
    process.stdout.write(
      `\n  First start: created the operator "${first.account}" with the password  ${first.password}\n  It is shown only this once. Set ADMIN_PASSWORD to choose it instead.\n\n`,
    );
  } else if (first) logger.info({ account: first.account }, 'created the first operator from ADMIN_PASSWORD');

  if (imageCipher(config).development && process.env.NODE_ENV === 'production')
    logger.warn(
      {},
      'IMAGE_KEY and IMAGE_IV are not set: images are encrypted with the public development key. Set both.',
    );
  const imagesDir = join(resolve(config.dataDir), 'images');
  const images = fileImageStorage(imagesDir);
  if (config.seed !== undefined) {
    const { seeded } = await seed(database.db, config, {
      seed: config.seed,
      images,
      onPasswords: (operators) => {
        const width = Math.max(...operators.map((o) => o.account.length));
        process.stdout.write(
          `\n  Sample operators (SEED), each with its own random password, shown only this once:\n${operators
            .map((o) => `    ${o.account.padEnd(width)}  ${o.password}`)
            .join('\n')}\n\n`,
        );
      },
    });
    if (seeded) logger.info({ seed: config.seed }, 'filled the empty database with sample data');
  }

  const api = createApp({
    db: database.db,
    config,
    clock: systemClock,
    logger,
    clientAddress: (c) =>
      forwardedClient(c.req.header('x-forwarded-for'), config.trustProxy) ??
      getConnInfo(c).remote.address ??
      'unknown',
    images,
    region: ip2regionLookup(),
  });
  const stopRollup = startRollupTimer(database.db, {
    seconds: config.rollupSeconds,
    defaultTenant: config.defaultTenant,
    logger,
  });

  const stopDomainHealth = startDomainHealthTimer(database.db, { tenant: config.defaultTenant, logger });

  const clientRoot = fileURLToPath(new URL('../client', import.meta.url));
  const root = createRoot(api, clientRoot, logger);

  const server = serve({ fetch: root.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info(
      {
        url: `http://${config.host}:${info.port}`,
        database: database.driver,
        where,
        migrations: applied,
        images: imagesDir,
        startMs: Math.round(performance.now() - started),
      },
      'Zhanggui is serving',
    );
  });
  server.on('error', (err: NodeJS.ErrnoException) =>
    die(`cannot listen on ${config.host}:${config.port}: ${err.code ?? err.message}`),
  );

  const stop = async () => {
    stopRollup();
    stopDomainHealth();
    server.close();
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => die((err as Error).message));
