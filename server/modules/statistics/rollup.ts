import { sql } from 'drizzle-orm';
import { addDays, dayOf } from '../../../common/period';
import { isPassing, rootMessage } from '../../core/db-errors';
import { arrayParam } from '../../db/array-literal';
import { analyzeStale } from '../../db/maintenance';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import { tenantsWithSiteKey } from '../site/state';
import { readStatistics, tenantsWithStatistics } from '../statistics-settings';
import { type FoldedRead, RETURN_DAYS, rollupAttribution } from './attribution';
import { foldDomainDay } from './blocks';
import { DAY_FIGURE_TABLES, DayFold } from './day-figures';
import { cacheFold, folds, holdDay, releaseDay, takenBatches } from './fold-cache';
import { partitionName, timeZoneOf } from './ingest';
import { markRolled } from './report-cache';
import { WHOLE_DAY } from './schema';
import { recordSeen } from './seen';
import { rollupVisits } from './visits';
import { forgetOldReads } from './warm-reads';

/** Any 64-bit number that is ours: one rollup runner at a time, whatever the number of API instances. */
export const ROLLUP_LOCK = 7_270_772_012;

/**
 * Rolls one (tenant, day) up, in the caller's transaction: its figures from every raw event of the day (the day's rows
 * deleted and inserted again), or, with a cached fold (`queue`), from the events of the batches queued since alone, folded into the
 * figures the runner kept (the rows of the keys they touch written again); the caller deletes those batches from
 * the queue in the same transaction. So a day rolled up twice, or again after a run stopped halfway, never counts an
 * event twice. The attribution part recomputes the day whole either way. Returns the day's fold.
 *
 * Two parts read the day's events independently: the figures (the domains' daily and hourly rows and blocks, keywords,
 * objects, visits, channels: day-figures.ts; and what needs each visitor's page views, `stat_visitors` and the visits,
 * bounces and new visitors: visits.ts, in SQL) and the attribution. With `parallel` (PostgreSQL:
 * a pool, so more connections) the attribution runs at once, in a transaction of its own that commits before the
 * caller's: if it fails, the caller's fails too and the day stays marked; if the caller's fails after, it is
 * recomputed from the same events when the day is rolled again. The kept reports' stamps are written last, by the
 * caller's transaction only (a row two parts wrote would wait on a transaction that waits for it: a deadlock
 * PostgreSQL cannot see).
 */
export async function rollupDay(
  tx: Executor,
  tenant: number,
  day: string,
  settings: { timeZone: string; attributionDays: number },
  parallel?: Db,
  /**
   * Given by a runner that took the day's queued batches in `tx`: the day's fold it cached from its last rollup, if
   * any, then the batches alone are folded into it; without a cached fold the day is read whole but for the batches
   * queued since (the next fold takes them).
   */
  queue?: { cached?: DayFold; batches: number[] },
): Promise<DayFold> {
  const { timeZone } = settings;
  // The registers stored on insert, computed here for the older events stored without them.
  const ev = sql`select *, coalesce(visitor_reg, zg_hll_reg(visitor_hash)) as vreg,
    coalesce(address_reg, zg_hll_reg(address_hash)) as areg from stat_events where tenant = ${tenant} and day = ${day}::date`;
  // The domains, keywords, objects, visits and channels: one read of the day's events (or of the batches since),
  // folded in JavaScript (day-figures.ts); then what needs each visitor, grouped in SQL over every event the fold
  // holds (the day's, but batches still queued: the next fold takes them); then the domains' blocks.
  // The attribution waits for that read for the channels' traffic (its last statements).
  let folded: (read: FoldedRead) => void = () => {};
  let readFailed: (err: unknown) => void = () => {};
  const read = new Promise<FoldedRead>((resolve, reject) => {
    folded = resolve;
    readFailed = reject;
  });
  read.catch(() => {}); // awaited by the attribution; a failed read rejects the day through the figures part too
  const fold = queue?.cached ?? new DayFold(tenant, day, timeZone);
  const whole = !queue?.cached;
  /** Later days some visitor was counted new on whose first day moved here. */
  const moved = new Set<string>();
  const figures = async (t: Executor) => {
    try {
      await fold.read(t, {
        ...(whole ? { exceptQueued: !!queue } : { batches: queue!.batches }),
        onFolded: () => folded({ traffic: fold.traffic }),
      });
    } catch (err) {
      readFailed(err);
      throw err;
    }
    const sketched = await fold.write(t, { whole });
    const events = queue
      ? sql`(e.batch is null or not exists (select 1 from stat_fold_queue q where q.tenant = ${tenant}
          and q.day = ${day}::date and q.batch = e.batch))`
      : sql`true`;
    // A cached fold stands for the events counted before the batches: only the batches' page views are grouped.
    const visits = await rollupVisits(t, tenant, day, timeZone, events, whole ? undefined : queue!.batches);
    for (const d of visits.moved) moved.add(d);
    fold.visitsRead = visits.read;
    // A fold of new batches alone changes the blocks of the domains whose sketches it changed.
    await foldDomainDay(t, tenant, day, whole ? undefined : sketched);
  };
  const attribution = (t: Executor) =>
    rollupAttribution(t, tenant, day, ev, settings.attributionDays, read, whole ? undefined : queue!.batches);

  if (parallel) {
    const apart = (part: (t: Executor) => Promise<void>) =>
      parallel.transaction(async (t) => {
        // A wait this long is a cycle through this process (this part waits on a lock, the day's transaction waits
        // for this part): give up, the day stays marked and the next run rolls it again.
        await t.execute(sql`set local lock_timeout = '10s'`);
        await part(t);
      });
    const [own, ...others] = await Promise.allSettled([figures(tx), apart(attribution)]);
    for (const other of others) if (other.status === 'rejected') throw other.reason;
    if (own.status === 'rejected') throw own.reason;
  } else {
    await figures(tx);
    await attribution(tx);
  }
  // A later day that counted a visitor new whose first day moved here is recomputed whole (by this run's next pass).
  // The caller's transaction marks them, after both parts (the attribution marks days too, on another connection: a
  // mark both wrote would wait on a transaction that waits for it).
  if (moved.size) await queueWhole(tx, tenant, [...moved]);
  // Kept report answers over this day are stale from now on, and the attribution's return bits may have changed the
  // sums of the seven days before.
  await markRolled(tx, tenant, day);
  for (let k = 1; k <= RETURN_DAYS; k++) await markRolled(tx, tenant, addDays(day, -k), 'sums');
  // Last: it locks out the movies' status changes until the day's transaction ends.
  await recordSeen(tx, tenant, day, fold.takeViewed());
  return fold;
}

interface RollupResult {
  /** False when another runner held the lock: this one did nothing. */
  ran: boolean;
  days: { tenant: number; day: string }[];
  /**
   * Marked days left for a later run, their marks kept: held by the pace (see `RollupPace`), or rolled in this run
   * with batches queued since.
   */
  deferred: { tenant: number; day: string }[];
  droppedPartitions: string[];
  /**
   * Days whose rollup failed in this run for a reason a retry will not fix (`isPassing`), recorded in
   * `stat_rolled_days` (`error`); the run went on with the other days.
   */
  stuck: StuckDay[];
}

/**
 * The rollup's answer when a day got stuck in it: every other day was rolled up and the retention applied (`result`),
 * but the caller must hear of it as a failure, one that is not "database unavailable, retry".
 */
export class RollupStuck extends Error {
  constructor(readonly result: RollupResult) {
    super(`statistics days stuck: ${result.stuck.map((d) => `${d.tenant}/${d.day}: ${d.error}`).join('; ')}`);
    this.name = 'RollupStuck';
  }
}

export interface StuckDay {
  tenant: number;
  day: string;
  error: string;
  failedAt: string;
  attempts: number;
}

/**
 * How long the timer leaves a stuck day before trying it again: a minute after its first failure, doubling with each
 * attempt up to an hour (each attempt may read the whole day again). An admin's "roll up now" tries it at once.
 */
const stuckBackoffMs = (attempts: number) => Math.min(2 ** Math.max(attempts - 1, 0), 60) * 60_000;

/** A tenant's stuck days, oldest first. */
export async function stuckDays(db: Executor, tenant: number): Promise<StuckDay[]> {
  return rowsOf<{ day: string; error: string; failed_at: string | Date; attempts: number }>(
    await db.execute(sql`select day::text as day, error, failed_at, attempts from stat_rolled_days
      where tenant = ${tenant} and error is not null order by day`),
  ).map((r) => ({
    tenant,
    day: r.day,
    error: r.error,
    failedAt: new Date(r.failed_at).toISOString(),
    attempts: Number(r.attempts),
  }));
}

/**
 * Where PGlite's rollup stops keeping up: a day's visitor rows outgrow its memory, and past this many visitors a day its
 * rollup grows far faster than the day (docs/statistics.md, "One very busy day on PGlite").
 */
export const EMBEDDED_BUSY_DAY = 50_000;

/** The days given whose site-wide visitors (the sketch's estimate) reach `atLeast`. */
export async function busyDays(
  db: Executor,
  days: readonly { tenant: number; day: string }[],
  atLeast: number,
): Promise<{ tenant: number; day: string; visitors: number }[]> {
  if (!days.length) return [];
  return rowsOf<{ tenant: number; day: string; visitors: number }>(
    await db.execute(sql`select tenant, day::text as day, visitors_n as visitors from stat_domain_daily
      where domain = '' and visitors_n >= ${atLeast} and (tenant, day) in (select * from unnest(
        ${arrayParam(days.map((d) => d.tenant))}::int[], ${arrayParam(days.map((d) => d.day))}::date[]))
      order by tenant, day`),
  ).map((r) => ({ tenant: Number(r.tenant), day: r.day, visitors: Number(r.visitors) }));
}

/**
 * The timer's pace: a day rolled up in T ms is not rolled up again before `factor` × T ms have passed since, so the
 * rollup keeps the database busy for at most 1 / (1 + factor) of the time, whatever the traffic: a run folds the
 * batches queued since the last, but one that recomputes a day whole (a start, a day marked so) costs what the day
 * holds. The reports then lag by up to `factor` × T instead. Kept per process (one runner's timer); `npm run rollup`
 * and the admins' "roll up now" run without it.
 */
export class RollupPace {
  private readonly next = new Map<string, number>();
  constructor(readonly factor = 4) {}
  due(tenant: number, day: string, at: number): boolean {
    return (this.next.get(`${tenant}|${day}`) ?? 0) <= at;
  }
  rolled(tenant: number, day: string, at: number, took: number) {
    for (const [k, t] of this.next) if (t <= at) this.next.delete(k); // only days still held are kept
    this.next.set(`${tenant}|${day}`, at + this.factor * took);
  }
}

/**
 * Brings the raw partitions' batch index (BRIN) up to the pages stored since it was last summarized. A range of pages
 * not yet summarized matches every batch, so until a vacuum gets to it (a busy day's stream outpaces autovacuum, and
 * PGlite has none) each read of a run's new batches (the fold, the visits, the touches) would read the day's events
 * whole. Summarizing reads the new pages once. A partition a vacuum holds is left as it is (the reads still answer).
 */
async function summarizeBatches(db: Db, partitions: string[]) {
  for (const p of partitions)
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '1s'`);
        await tx.execute(sql`select brin_summarize_new_values(i.indexrelid) from pg_index i
          join pg_class t on t.oid = i.indrelid join pg_class x on x.oid = i.indexrelid join pg_am a on a.oid = x.relam
          where t.relname = ${p} and a.amname = 'brin'`);
      });
    } catch (err) {
      if (!isPassing(err)) throw err;
    }
}

/** The raw partitions that exist, by day. */
export async function rawPartitions(db: Executor): Promise<{ name: string; day: string }[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent where p.relname = 'stat_events'`),
  );
  return rows
    .map((r) => ({ name: r.name, m: /^stat_events_p(\d{4})(\d{2})(\d{2})$/.exec(r.name) }))
    .filter((r) => r.m)
    .map((r) => ({ name: r.name, day: `${r.m![1]}-${r.m![2]}-${r.m![3]}` }))
    .sort((a, b) => a.day.localeCompare(b.day));
}

/**
 * The tables the rollup reads besides the raw partitions, and those the reports read: the planner must know their
 * size (`analyzeStale`). Without statistics, a day rolled up again once the touches of its first rollup were stored
 * planned a nested loop over every pair of them (5 minutes for 50,000 visitors, against 0.4 s with statistics).
 */
const ANALYZED_TABLES = [
  'stat_keyword_blocks',
  'stat_visitors',
  'stat_visitor_hours',
  'stat_touches',
  'stat_signups',
  'stat_payers',
  ...DAY_FIGURE_TABLES,
  'stat_domain_blocks',
  'stat_attributed_daily',
  'stat_attributed_blocks',
  'stat_attributed_block_sketches',
];

/** Queues `days` to be recomputed whole from their raw events by the next run. */
export async function queueWhole(tx: Executor, tenant: number, days: readonly string[]) {
  await tx.execute(sql`insert into stat_fold_queue (tenant, day, batch)
    select ${tenant}, d, ${WHOLE_DAY}::bigint from unnest(${sql.param([...days].sort())}::date[]) as d order by d
    on conflict do nothing`);
}

/**
 * The days waiting for the rollup, once each: queued whole (`whole`) or with batches to fold (stat_fold_queue). The
 * agents' settlement waits for them too.
 */
export const MARKED_DAYS = sql`select tenant, day, bool_or(batch = ${sql.raw(String(WHOLE_DAY))}) as whole
  from stat_fold_queue group by tenant, day`;

/** How many times one run reads the marked days again (see `runRollup`); what is left waits for the next run. */
const MAX_PASSES = 5;

/**
 * The rollup: every marked day (`MARKED_DAYS`) is rolled up in its own transaction, each under the rollup's advisory
 * lock (a runner that finds it taken stops: another is at work): a day with batches queued whose fold this runner cached
 * from its last rollup folds those batches alone, any other is recomputed whole from its raw events; then raw partitions older than the longest
 * retention of any tenant are dropped (after their last rollup: a dropped day is never recomputed, its rollups stay),
 * and so are the attribution touches older than the first kept day less the tenant's attribution window.
 * `stopAfter` ends the run after that many days (tests use it to stop a run halfway). `parallel` (PostgreSQL only:
 * PGlite has one connection) rolls each day's three parts at once on three connections (see `rollupDay`).
 * A day that fails for a reason retrying will not fix is recorded in `stat_rolled_days` (`error`) and the run goes
 * on with the others; the run then rejects with `RollupStuck` (its result inside). Any other failure rejects the run
 * at once.
 */
export async function runRollup(
  db: Db,
  opts: { now: Date; defaultTenant: number; stopAfter?: number; pace?: RollupPace; parallel?: boolean },
): Promise<RollupResult> {
  const result: RollupResult = { ran: true, days: [], deferred: [], droppedPartitions: [], stuck: [] };
  const start = performance.now();
  const clock = () => opts.now.getTime() + (performance.now() - start); // the run's own time, from `now`
  // Each tenant's time zone and statistics settings, read once per run.
  const zones = new Map<number, string>();
  const retention = new Map<number, number>();
  const attribution = new Map<number, number>();
  const settingsOf = async (tenant: number) => {
    if (!zones.has(tenant)) {
      zones.set(tenant, await timeZoneOf(db, tenant));
      const s = await readStatistics(db, tenant);
      retention.set(tenant, s.rawRetentionDays);
      attribution.set(tenant, s.attributionDays);
    }
    return {
      timeZone: zones.get(tenant)!,
      days: retention.get(tenant)!,
      attributionDays: attribution.get(tenant)!,
    };
  };
  // Folds of days before yesterday (the day turned since they were kept) serve no more: late events are few.
  for (const key of folds.keys(db)) {
    const fold = folds.peek(db, key);
    if (fold && fold.day < addDays(dayOf(opts.now, fold.timeZone), -1)) folds.delete(db, key);
  }
  // A day's rollup can mark later days (a late touch moves their credit, a first payment moves): they are read again
  // and rolled in the same run, a bounded number of times (events arriving meanwhile mark days too).
  // A day rolled in this run is rolled again only when marked whole meanwhile: the batches queued for it since wait for
  // the next run (under a steady stream every pass finds some, and a pass over a day costs what the keys it touches
  // do, however few events came: five passes back to back did the work of one many times over).
  const rolled = new Set<string>();
  // Stuck days (a failure no retry fixes): the timer (`pace`) tries one again only after its backoff, and a day that
  // fails in this run is not tried again in it; either way the other days go on.
  const failed = new Set<string>();
  const stuckUntil = new Map(
    rowsOf<{ tenant: number; day: string; failed_at: string | Date; attempts: number }>(
      await db.execute(
        sql`select tenant, day::text as day, failed_at, attempts from stat_rolled_days where error is not null`,
      ),
    ).map((r) => [
      `${Number(r.tenant)}|${r.day}`,
      new Date(r.failed_at).getTime() + stuckBackoffMs(Number(r.attempts)),
    ]),
  );
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const marked = rowsOf<{ tenant: number; day: string; whole: boolean }>(
      await db.execute(
        sql`select tenant, day::text as day, whole from (${MARKED_DAYS}) m order by day, tenant`,
      ),
    ).map((d) => ({ tenant: Number(d.tenant), day: d.day, whole: d.whole === true }));
    const dirty = marked
      .filter((d) => d.whole || !rolled.has(`${d.tenant}|${d.day}`))
      .filter((d) => !failed.has(`${d.tenant}|${d.day}`))
      .filter((d) => !opts.pace || (stuckUntil.get(`${d.tenant}|${d.day}`) ?? 0) <= clock())
      .filter((d) => !opts.pace || opts.pace.due(d.tenant, d.day, clock()));
    result.deferred = marked.filter((d) => !dirty.includes(d)).map(({ tenant, day }) => ({ tenant, day }));
    if (!dirty.length) break;
    const partitions = [...new Set(dirty.map((d) => partitionName(d.day)))];
    await analyzeStale(db, [...partitions, ...ANALYZED_TABLES]);
    await summarizeBatches(db, partitions);
    for (const { tenant, day } of dirty) {
      if (opts.stopAfter !== undefined && result.days.length >= opts.stopAfter) return done(result);
      const { timeZone, attributionDays } = await settingsOf(Number(tenant));
      const began = performance.now();
      // The day's fold this runner cached: taken out while the day is rolled (a failed transaction leaves it changed).
      const key = `${tenant}|${day}`;
      const cached = folds.peek(db, key);
      folds.delete(db, key);
      holdDay(db, key);
      let got: false | true | { fold: DayFold; gen: string } = false;
      let failure: unknown;
      try {
        got = await db.transaction(async (tx) => {
          if (!(await tryLock(tx))) return false;
          const queued = rowsOf<{ batch: string }>(
            await tx.execute(
              sql`delete from stat_fold_queue where tenant = ${tenant} and day = ${day}::date returning batch`,
            ),
          ).map((b) => Number(b.batch));
          const whole = queued.includes(WHOLE_DAY);
          const batches = queued.filter((b) => b !== WHOLE_DAY);
          takenBatches(db, batches); // read here, unless the cached fold has them already
          if (!whole && !batches.length) return true; // rolled by another runner meanwhile
          // The cached fold serves while no other runner rolled the day since (its stamp is still the day's).
          let serves = false;
          if (cached && !whole && cached.timeZone === timeZone) {
            const [stamp] = rowsOf<{ gen: string }>(
              await tx.execute(sql`select day_gen::text as gen from stat_rolled_days
              where tenant = ${tenant} and day = ${day}::date`),
            );
            serves = stamp?.gen === cached.stamp;
          }
          const fold = await rollupDay(
            tx,
            tenant,
            day,
            { timeZone, attributionDays },
            opts.parallel ? db : undefined,
            { cached: serves ? cached : undefined, batches },
          );
          const [{ gen }] = rowsOf<{ gen: string }>(
            await tx.execute(sql`select txid_current()::text as gen`),
          );
          await tx.execute(sql`update stat_rolled_days set error = null, failed_at = null, attempts = 0
            where tenant = ${tenant} and day = ${day}::date and error is not null`);
          return { fold, gen };
        });
      } catch (err) {
        // A lost connection, a serialization failure or a lock given up ends the run as before (the next run rolls
        // the day again); anything else would fail on every run and hold the queue: the day is set aside.
        if (isPassing(err)) throw err;
        failure = err;
      } finally {
        // Kept for the next run while the day still takes events as a rule (today and yesterday, in its time zone),
        // with the batches stored meanwhile folded in.
        if (got === true) {
          if (cached) cacheFold(db, key, cached); // untouched; its stamp tells the next run whether it still serves
        } else if (got && day >= addDays(dayOf(opts.now, timeZone), -1)) {
          got.fold.stamp = got.gen;
          cacheFold(db, key, got.fold);
        }
        releaseDay(db, key);
      }
      if (failure !== undefined) {
        failed.add(key);
        const [row] = rowsOf<{ failed_at: string | Date; attempts: number }>(
          await db.execute(sql`insert into stat_rolled_days (tenant, day, gen, error, failed_at, attempts)
            values (${tenant}, ${day}::date, 0, ${rootMessage(failure)},
              ${new Date(clock()).toISOString()}::timestamptz, 1)
            on conflict (tenant, day) do update set error = excluded.error, failed_at = excluded.failed_at,
              attempts = stat_rolled_days.attempts + 1
            returning failed_at, attempts`),
        );
        result.stuck.push({
          tenant,
          day,
          error: rootMessage(failure),
          failedAt: new Date(row.failed_at).toISOString(),
          attempts: Number(row.attempts),
        });
        continue;
      }
      if (!got) return done({ ...result, ran: false });
      opts.pace?.rolled(tenant, day, clock(), performance.now() - began);
      result.days.push({ tenant, day });
      rolled.add(key);
    }
  }

  await analyzeStale(db, ANALYZED_TABLES); // what the run wrote, for the reports' plans

  // Retention: the longest of any tenant's settings (partitions hold every tenant's events of a day), of every tenant
  // that may hold events (a site key, saved statistics settings, the default, those rolled up now), not only of those
  // this run rolled up; and a day goes only once it is past the retention in every such tenant's time zone.
  const [keyed, configured] = await Promise.all([tenantsWithSiteKey(db), tenantsWithStatistics(db)]);
  for (const tenant of new Set([opts.defaultTenant, ...keyed, ...configured])) await settingsOf(tenant);
  const keep = Math.max(...retention.values());
  const cut = [...zones.values()] // the newest day that may go
    .map((tz) => addDays(dayOf(opts.now, tz), -(keep - 1) - 1))
    .reduce((a, b) => (b < a ? b : a));
  // A day still waiting for its rollup (marked, or stuck: a stuck day stays marked) keeps its raw events whatever its
  // age: they are all its statistics will ever be made of.
  const waiting = new Set(
    rowsOf<{ day: string }>(
      await db.execute(sql`select distinct day::text as day from (${MARKED_DAYS}) m`),
    ).map((r) => r.day),
  );
  const old = (await rawPartitions(db)).filter((p) => p.day <= cut && !waiting.has(p.day));
  for (const p of old) {
    const got = await db.transaction(async (tx) => {
      if (!(await tryLock(tx))) return false;
      await tx.execute(sql`delete from stat_fold_queue where day = ${p.day}::date`);
      await tx.execute(sql.raw(`drop table if exists ${p.name}`));
      return true;
    });
    if (!got) return done({ ...result, ran: false });
    result.droppedPartitions.push(p.name);
  }

  // The visitors' hours serve only the days rolled up from their new batches: today and yesterday in some time zone
  // (a fold older than that is let go above, and its day's next rollup counts it whole).
  const folded = [...zones.values()]
    .map((tz) => addDays(dayOf(opts.now, tz), -1))
    .reduce((a, b) => (b < a ? b : a));
  const cleared = await db.transaction(async (tx) => {
    if (!(await tryLock(tx))) return false;
    await tx.execute(sql`delete from stat_visitor_hours where day < ${folded}::date`);
    return true;
  });
  if (!cleared) return done({ ...result, ran: false });

  // Report reads no warm-up will make again (warm-reads.ts).
  await forgetOldReads(db, opts.now);

  // Touches (attribution) no rollup can read any more: a day is rolled up again only while its raw events are kept
  // (newer than `cut`), and its conversions look back over the tenant's attribution window from that day.
  const touchTenants = rowsOf<{ tenant: number }>(
    await db.execute(sql`with recursive t as (select min(tenant) as tenant from stat_touches
        union all select (select min(tenant) from stat_touches where tenant > t.tenant) from t where t.tenant is not null)
      select tenant from t where tenant is not null`),
  );
  for (const { tenant } of touchTenants) {
    const { attributionDays } = await settingsOf(Number(tenant));
    const got = await db.transaction(async (tx) => {
      if (!(await tryLock(tx))) return false;
      await tx.execute(
        sql`delete from stat_touches where tenant = ${tenant} and day <= ${addDays(cut, -attributionDays)}::date`,
      );
      return true;
    });
    if (!got) return done({ ...result, ran: false });
  }
  return done(result);
}

/** The run's result, or `RollupStuck` carrying it when a day got stuck in the run. */
function done(result: RollupResult): RollupResult {
  if (result.stuck.length) throw new RollupStuck(result);
  return result;
}

async function tryLock(tx: Executor): Promise<boolean> {
  const [row] = rowsOf<{ ok: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as ok`),
  );
  return row.ok === true || (row.ok as unknown) === 't';
}
