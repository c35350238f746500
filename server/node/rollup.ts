import { type Clock, systemClock } from '../core/clock';
import type { Logger } from '../core/logger';
import { analyzeStale, VACUUM_EVERY_MS, vacuumWithoutAutovacuum } from '../db/maintenance';
import type { Db } from '../db/types';
import { RollupPace, RollupStuck, runRollup, warmReads } from '../modules/statistics';

/**
 * The statistics rollup on an in-process timer: every `seconds` (after the previous run has ended, so runs never
 * overlap in one process; across instances the rollup's advisory lock lets one work and the others pass), at the
 * `RollupPace` (a day that took T to roll up waits 4T for the next: today's rollup never takes the database over).
 * Each run then analyses whatever table has grown since its statistics were taken (`analyzeStale`): the embedded
 * database has no autovacuum, and the lists' plans need sizes too. Every VACUUM_EVERY_MS, where no autovacuum runs,
 * a run also vacuums every table (`vacuumWithoutAutovacuum`), for the visibility maps index-only scans need. After the
 * rollup, the reports operators read lately are read again (`warmReads`): their next read finds the answer kept, also
 * after a start or the day's turn (what is kept is kept per database handle: `db` is the app's own, as serve.ts gives
 * it). Returns a stop function.
 */
export function startRollupTimer(
  db: Db,
  opts: {
    seconds: number;
    defaultTenant: number;
    logger: Logger;
    parallel?: boolean;
    vacuumEveryMs?: number;
    /** The system's clock unless given (tests). */
    clock?: Clock;
  },
) {
  const clock = opts.clock ?? systemClock;
  if (!opts.seconds) return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const pace = new RollupPace();
  // The maps persist in the data directory: the first vacuum waits its interval too, not slowing a start.
  let vacuumed = Date.now();
  const vacuumEvery = opts.vacuumEveryMs ?? VACUUM_EVERY_MS;
  const tick = async () => {
    try {
      const r = await runRollup(db, {
        now: clock.now(),
        defaultTenant: opts.defaultTenant,
        pace,
        parallel: opts.parallel,
      }).catch((err) => {
        if (err instanceof RollupStuck) return err.result; // logged below; the warm-up and maintenance still run
        throw err;
      });
      if (r.days.length || r.droppedPartitions.length)
        opts.logger.info(
          { days: r.days.length, deferred: r.deferred.length, droppedPartitions: r.droppedPartitions.length },
          'statistics rollup',
        );
      if (r.stuck.length)
        opts.logger.error(
          {
            stuck: r.stuck.map((d) => ({
              tenant: d.tenant,
              day: d.day,
              attempts: d.attempts,
              error: d.error,
            })),
          },
          'statistics days stuck: their rollup fails in a way retrying will not fix',
        );
      // The reports operators read lately, read again so that their next read finds its answer kept.
      const warm = await warmReads(db, clock.now());
      if (warm.failed.length) opts.logger.warn({ failed: warm.failed }, 'report reads not warmed');
      const analysed = await analyzeStale(db);
      if (analysed.length) opts.logger.info({ tables: analysed }, 'planner statistics taken');
      if (Date.now() - vacuumed >= vacuumEvery) {
        vacuumed = Date.now();
        const tables = await vacuumWithoutAutovacuum(db);
        if (tables.length) opts.logger.info({ tables: tables.length }, 'tables vacuumed');
      }
    } catch (err) {
      opts.logger.error({ err: (err as Error).message }, 'statistics rollup failed');
    }
    if (!stopped) timer = setTimeout(tick, opts.seconds * 1000);
  };
  timer = setTimeout(tick, 1000);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
