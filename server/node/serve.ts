import { hash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve as listen } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from '../app';
import type { Config } from '../config';
import { forwardedClient } from '../core/client-address';
import { systemClock } from '../core/clock';
import type { Logger } from '../core/logger';
import type { Database } from '../db/types';
import { runImages } from '../modules/collect';
import { imageCipher } from '../modules/images/cipher';
import { ensureFirstAdmin } from '../modules/operators';
import { seed } from '../seed';
import { startAuditPurgeTimer } from './audit-purge';
import { startCollectTimer } from './collect-timer';
import { startDomainHealthTimer } from './domain-health';
import { fileImageStorage } from './image-storage';
import { guardedFetch } from './outbound';
import { ip2regionLookup } from './region';
import { startRollupTimer } from './rollup';
import { createRoot } from './root';
import { SERVE_OPTIONS } from './shed';

/** What main.ts hands over once the database is open and migrated. */
export interface Started {
  database: Database;
  config: Config;
  logger: Logger;
  /** Where the database is (a host, or the data directory), for the log. */
  where: string;
  /** The migrations applied by this start. */
  applied: string[];
  /** The start's phases so far (ms), completed here and logged when the server listens. */
  phases: Record<string, number>;
  /** The built SPA (dist/client), found from the entry (main.js) since this file is a chunk of its own. */
  clientRoot: string;
  /** Fails the start with one clear line. */
  die: (line: string) => never;
}

const since = (t0: number) => Math.round(performance.now() - t0);

/**
 * The second half of a start, imported while the database opens (main.ts): the first admin, the seed, the app
 * (every module and its OpenAPI routes), the timers, then listening.
 */
export async function serve({ database, config, logger, where, applied, phases, clientRoot, die }: Started) {
  let t0 = performance.now();
  const first = await ensureFirstAdmin(database.db, config);
  phases.firstAdmin = since(t0);
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
  if (!config.siteSecretKey) {
    config.siteSecretKey = siteSecretKeyIn(resolve(config.dataDir));
    if (config.databaseUrl)
      logger.warn(
        {},
        'SITE_SECRET_KEY is not set: the site server secrets are sealed with a key kept in DATA_DIR. Several instances must share one: set SITE_SECRET_KEY on each.',
      );
  }
  const imagesDir = join(resolve(config.dataDir), 'images');
  const images = fileImageStorage(imagesDir);
  if (config.seed !== undefined) {
    t0 = performance.now();
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
    phases.seed = since(t0);
    if (seeded) logger.info({ seed: config.seed }, 'filled the empty database with sample data');
  }

  t0 = performance.now();
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
    md5: (text) => hash('md5', text),
    outbound: guardedFetch,
  });
  const stopRollup = startRollupTimer(database.db, {
    seconds: config.rollupSeconds,
    defaultTenant: config.defaultTenant,
    parallel: database.driver === 'postgres',
    logger,
  });
  const stopDomainHealth = startDomainHealthTimer(database.db, { tenant: config.defaultTenant, logger });
  const stopCollect = startCollectTimer(database.db, {
    tenant: config.defaultTenant,
    logger,
    images: runImages({ images, config }),
  });
  const stopAuditPurge = startAuditPurgeTimer(database.db, { tenant: config.defaultTenant, logger });
  const root = createRoot(api, clientRoot, logger);
  phases.app = since(t0);

  t0 = performance.now();
  const server = listen(
    { fetch: root.fetch, port: config.port, hostname: config.host, ...SERVE_OPTIONS },
    (info) => {
      phases.listen = since(t0);
      logger.info(
        {
          url: `http://${config.host}:${info.port}`,
          database: database.driver,
          where,
          migrations: applied,
          images: imagesDir,
          startMs: Math.round(performance.now()),
          phases,
        },
        'Zhanggui is serving',
      );
    },
  );
  server.on('error', (err: NodeJS.ErrnoException) =>
    die(`cannot listen on ${config.host}:${config.port}: ${err.code ?? err.message}`),
  );

  const stop = async () => {
    stopRollup();
    stopDomainHealth();
    stopCollect();
    stopAuditPurge();
    server.close();
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * The key the site's server secrets are sealed with when SITE_SECRET_KEY is not set: made once, kept beside the
 * database (readable by the server's user only). Losing it means making a new secret, as rotating does.
 */
function siteSecretKeyIn(dir: string): string {
  const file = join(dir, 'site-secret.key');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/i.test(text)) return text;
    throw new Error(`${file} does not hold 64 hex digits: remove it (then make a new site server secret)`);
  }
  mkdirSync(dir, { recursive: true });
  const made = randomBytes(32).toString('hex');
  writeFileSync(file, `${made}\n`, { mode: 0o600, flag: 'wx' });
  return made;
}
