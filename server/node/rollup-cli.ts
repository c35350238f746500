import { loadConfig } from '../config';
import { silentLogger } from '../core/logger';
import { migrate } from '../db/migrate';
import { RollupStuck, runRollup } from '../modules/statistics';
import { openDataDir } from './data-dir';
import { openPostgres } from './postgres';
import { busyDayWarning } from './rollup';

/**
 * `npm run rollup`: one statistics rollup now, on the database the server uses (DATABASE_URL or DATA_DIR), then exit.
 * For cron, or with ROLLUP_SECONDS=0 on the servers. Waits for nothing: if another runner holds the lock it says so.
 * (PGlite's data directory is one process's: stop `npm start` before running this on it.)
 */
async function main() {
  const config = loadConfig(process.env);
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, 3)
    : await openDataDir(config.dataDir);
  try {
    await migrate(database.db);
    const t0 = performance.now();
    const r = await runRollup(database.db, {
      now: new Date(),
      defaultTenant: config.defaultTenant,
      parallel: database.driver === 'postgres',
    }).catch((err) => {
      if (err instanceof RollupStuck) return err.result; // the other days were rolled up: said below
      throw err;
    });
    const ms = Math.round(performance.now() - t0);
    process.stdout.write(
      r.ran
        ? `rollup: ${r.days.length} day(s) recomputed, ${r.droppedPartitions.length} raw partition(s) dropped, ${ms} ms\n`
        : 'rollup: another runner holds the lock; nothing done\n',
    );
    for (const d of r.stuck)
      process.stderr.write(
        `rollup: tenant ${d.tenant} day ${d.day} stuck (attempt ${d.attempts}): ${d.error}\n`,
      );
    await busyDayWarning(database.db, {
      ...silentLogger,
      warn: (d, msg) => process.stderr.write(`rollup: tenant ${d.tenant} day ${d.day}: ${msg}\n`),
    })(r.days);
    if (r.stuck.length) process.exitCode = 2;
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(`rollup: ${(err as Error).message}\n`);
  process.exit(1);
});
