import pg from 'pg';
import { type Clock, systemClock } from '../core/clock';
import type { Logger } from '../core/logger';
import { analyzeStale, VACUUM_EVERY_MS, vacuumWithoutAutovacuum } from '../db/maintenance';
import type { Db } from '../db/types';
import {
  busyDays,
  EMBEDDED_BUSY_DAY,
  REPORT_TABLES,
  RollupPace,
  RollupStuck,
  runRollup,
  warmReads,
} from '../modules/statistics';

/** The rollup leader's session-level advisory lock: any 64-bit number that is ours (beside the rollup's ROLLUP_LOCK). */
export const ROLLUP_LEADER_LOCK = 7_270_772_013;

/** Whether this process leads the rollup timers of the instances on its database (`rollupLeadership`). */
export interface Leadership {
  /** Takes the lead if no process holds it; true while this one does. */
  lead(): Promise<boolean>;
  /** Lets the lead go: another instance's timer takes it on its next tick. */
  release(): void;
}

/** The PostgreSQL pool under `db`; none on the embedded database (PGlite). */
function poolOf(db: Db): pg.Pool | undefined {
  const pool = (db as { $client?: unknown }).$client;
  return pool instanceof pg.Pool ? pool : undefined;
}

/**
 * Warns, once per tenant and day, of a day too busy for the embedded database (`EMBEDDED_BUSY_DAY` visitors): its
 * rollup would soon take minutes, and nothing else tells whoever runs the server that the site needs PostgreSQL.
 */
export function busyDayWarning(db: Db, logger: Logger, atLeast = EMBEDDED_BUSY_DAY) {
  const warned = new Set<string>();
  return async (days: readonly { tenant: number; day: string }[]) => {
    if (poolOf(db)) return;
    // Only a warning: where it cannot be read, the rollup's own errors say why, and a later run says it.
    const busy = await busyDays(db, days, atLeast).catch(() => []);
    for (const d of busy) {
      if (warned.has(`${d.tenant} ${d.day}`)) continue;
      warned.add(`${d.tenant} ${d.day}`);
      logger.warn(
        d,
        `statistics: ${d.visitors} visitors in a day on the embedded database; past about ${atLeast} a day its rollup slows down sharply: run the site on PostgreSQL (DATABASE_URL)`,
      );
    }
  };
}

/**
 * One rollup leader per database: the timer rolls up only while its process holds ROLLUP_LEADER_LOCK, a
 * session-level advisory lock on a connection of its own, kept as long as the process runs. The other instances'
 * timers find it taken and idle; when the leader stops, or its connection dies, PostgreSQL lets the lock go and the
 * next instance to tick takes it. A leader keeps its day folds between runs and finds them its own: with timers that
 * alternated, each found the day rolled by the other since and recomputed it whole. PGlite's data directory is one
 * process's: it leads.
 */
export function rollupLeadership(db: Db, logger: Logger): Leadership {
  const pool = poolOf(db);
  if (!pool) return { lead: async () => true, release() {} };
  let held: pg.PoolClient | undefined;
  const drop = (client: pg.PoolClient) => {
    if (held !== client) return;
    held = undefined;
    logger.warn({}, 'statistics rollup: the leader’s connection is gone; the lead is open again');
  };
  return {
    async lead() {
      if (held) return true;
      const client = await pool.connect();
      let ok = false;
      try {
        const r = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [
          ROLLUP_LEADER_LOCK,
        ]);
        ok = r.rows[0]?.ok === true;
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      if (!ok) {
        client.release();
        return false;
      }
      held = client;
      client.on('error', () => drop(client));
      client.on('end', () => drop(client));
      logger.info({}, 'statistics rollup: this instance leads');
      return true;
    },
    release() {
      const client = held;
      held = undefined;
      // Its connection closed: PostgreSQL ends the session, and the lock with it, at once.
      client?.release(true);
    },
  };
}

/**
 * The statistics rollup on an in-process timer: every `seconds` (after the previous run has ended, so runs never
 * overlap in one process), on the instance that leads (`rollupLeadership`; the others' timers idle), at the
 * `RollupPace` (a day that took T to roll up waits 4T for the next: today's rollup never takes the database over).
 * Each run then analyses whatever table has grown since its statistics were taken (`analyzeStale`): the embedded
 * database has no autovacuum, and the lists' plans need sizes too. Every VACUUM_EVERY_MS, where no autovacuum runs,
 * a run also vacuums every table (`vacuumWithoutAutovacuum`), for the visibility maps index-only scans need. After the
 * rollup, the reports operators read lately are read again (`warmReads`): their next read finds the answer cached, also
 * at the day's turn (what is cached is cached per database handle: `db` is the app's own, as serve.ts gives it).
 * A start has nothing cached, and a report over 90 days computed from nothing misses the first read's 100 ms (see
 * docs/statistics.md): so every instance, leading or not and with the timer off too, first reads those reports again
 * once (`warmAtStart`), before its first rollup, which then leaves stale only the days it rolls up. Returns a stop
 * function.
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
    /** Visitors a day past which the embedded database's rollup is said to be too slow (`busyDayWarning`). */
    busyDay?: number;
  },
) {
  const clock = opts.clock ?? systemClock;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let warmedAtStart = false;
  const warmAtStart = async () => {
    warmedAtStart = await warm(db, clock, opts.logger, { pool: true });
  };
  if (!opts.seconds) {
    timer = setTimeout(warmAtStart, 1000);
    return () => clearTimeout(timer);
  }
  const leadership = rollupLeadership(db, opts.logger);
  const pace = new RollupPace();
  const warnBusy = busyDayWarning(db, opts.logger, opts.busyDay);
  // The maps persist in the data directory: the first vacuum waits its interval too, not slowing a start.
  let vacuumed = Date.now();
  const vacuumEvery = opts.vacuumEveryMs ?? VACUUM_EVERY_MS;
  const tick = async () => {
    if (!warmedAtStart) await warmAtStart(); // tried again on the next tick where the database was not there
    try {
      const leads = await leadership.lead();
      if (stopped) leadership.release(); // stopped while it was taking the lead
      if (!leads || stopped) {
        if (!stopped) timer = setTimeout(tick, opts.seconds * 1000);
        return;
      }
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
      await warnBusy(r.days);
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
      // The reports operators read lately, read again so that their next read finds its answer cached.
      await warm(db, clock, opts.logger);
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
    leadership.release();
  };
}

/**
 * Opens every connection of the pool at once (none on PGlite) and on each reads the reports' tables once
 * (`REPORT_TABLES`), so that the first reads after a start find connections open and their backends' lookups of those
 * tables done. The pool keeps them (`openPostgres`). Requests that come meanwhile wait for it: a few milliseconds a
 * connection.
 */
export async function warmPool(db: Db) {
  const pool = poolOf(db);
  if (!pool) return;
  // Each connection is released whatever happens to the others (the database gone meanwhile): no slot is lost.
  const opened = await Promise.allSettled(Array.from({ length: pool.options.max }, () => pool.connect()));
  const clients = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  try {
    const failed = opened.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    await Promise.all(
      clients.map(async (client) => {
        for (const table of REPORT_TABLES)
          await client.query(`select 1 from ${table} where tenant = 0 limit 1`);
      }),
    );
  } finally {
    for (const client of clients) client.release();
  }
}

/** Reads again the reports read lately (`warmReads`), logging those it could not read; false where it could not run. */
async function warm(db: Db, clock: Clock, logger: Logger, { pool = false } = {}): Promise<boolean> {
  try {
    if (pool) await warmPool(db);
    const r = await warmReads(db, clock.now());
    if (r.failed.length) logger.warn({ failed: r.failed }, 'report reads not warmed');
    return true;
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'report reads not warmed');
    return false;
  }
}
