import { sql } from 'drizzle-orm';
import { dayOf, isDay, movedPeriod } from '../../../common/period';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { timeZoneOf } from './ingest';
import { cachePerDb } from './report-cache';
import { REPORTS, type ReportDef } from './reports';

/**
 * The warm-up of reports after a rollup. A report caches its answer, and the parts over its period's older days,
 * between reads (report-cache.ts); a rollup of a day the period covers, the day's turn (a period relative to today moves) or a
 * start (the caches are in memory) makes the next read compute from nothing: a thousand agents' sketches over 90
 * days, every material's days. Each report route remembers the queries operators make (`rememberRead`: the validated
 * query, its period resolved, as canonical JSON in `report_reads`, with the day it was made); after each rollup run
 * (`warmReads`, the rollup timer) the most recent ones are read again through the same function the route serves
 * them with, their periods moved to the current day where they ended yesterday or today (`movedPeriod`), so the
 * operator's next read finds its answer cached. The table, not memory, holds them: a start warms what was read before
 * it, and every instance warms what was read through any of them.
 */

/**
 * The tables the reports read (statistics', the ads' and the agents'), each with a `tenant` column: a start reads each
 * once on every connection of the pool (server/node/rollup.ts `warmPool`).
 */
export const REPORT_TABLES = [
  'stat_rolled_days',
  'report_reads',
  ...new Set(
    Object.values(REPORTS).flatMap((r: ReportDef) => [r.table, r.blocks ?? [], r.sumBlocks ?? []].flat()),
  ),
  'stat_domain_hourly',
  'stat_object_seen',
  'stat_seen_days',
  'stat_attributed_daily',
  'stat_attributed_blocks',
  'stat_attributed_block_sketches',
  'stat_attributed_totals',
];

/** A report query as its route validated it, with `from` and `to` resolved (days): stored as JSON. */
type ReadQuery = Record<string, unknown>;

/** The tenant's day and time zone a read is made in. */
interface ReadAt {
  today: string;
  timeZone: string;
}
/** Computes a report for `tenant` (its cached answer, computed again where stale). */
type Answer<Q, T> = (db: Executor, tenant: number, query: Q, at: ReadAt) => Promise<T>;

const replays = new Map<string, Answer<ReadQuery, unknown>>();

/**
 * Names the function that answers a report's reads, for `warmReads`, and returns what its route serves through: the
 * same function, then the read remembered (`rememberRead`; not with `remember: false`, a read that caches nothing).
 * So a route and the warm-up cannot compute a read two ways.
 */
export function replayable<Q extends object, T>(report: string, answer: Answer<Q, T>) {
  replays.set(report, answer as unknown as Answer<ReadQuery, unknown>);
  return async (
    db: Executor,
    read: { tenant: number; query: Q; at: ReadAt; now: Date; remember?: boolean },
  ): Promise<T> => {
    // Remembered beside the answer, not after it: its write (a commit) is not added to the read's time.
    const [out] = await Promise.all([
      answer(db, read.tenant, read.query, read.at),
      read.remember !== false &&
        rememberRead(db, {
          tenant: read.tenant,
          report,
          query: read.query as ReadQuery,
          day: read.at.today,
          now: read.now,
        }),
    ]);
    return out;
  };
}

/** A read is read again for this long after it was last made (operators come back to their reports daily). */
export const WARM_FOR_MS = 24 * 60 * 60_000;
/** At most this many reads (the most recent) are read again per run. */
const MAX_WARM_READS = 16;
/** Remembered reads older than this are deleted. */
const FORGET_AFTER_MS = 7 * 24 * 60 * 60_000;
/** A query read again and again is written at most once in this time (per process). */
const REMEMBER_EVERY_MS = 60_000;

const written = cachePerDb<number>(1024);

/** The query's JSON with its keys in order, undefined ones left out: one row per distinct read. */
const canonical = (query: ReadQuery) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

/**
 * Deletes the reads no warm-up will make again (older than `FORGET_AFTER_MS`): every rollup run does, the timer's and
 * `npm run rollup`'s alike, so the table stays small with the timer off too.
 */
export async function forgetOldReads(db: Executor, now: Date) {
  await db.execute(
    sql`delete from report_reads where read_at < ${new Date(now.getTime() - FORGET_AFTER_MS).toISOString()}::timestamptz`,
  );
}

/** Records that an operator read `report` with `query` on `day` (the tenant's today). */
async function rememberRead(
  db: Executor,
  read: { tenant: number; report: string; query: ReadQuery; day: string; now: Date },
) {
  const query = canonical(read.query);
  const key = `${read.tenant}|${read.report}|${read.day}|${query}`;
  const at = written.peek(db, key);
  const now = read.now.getTime();
  if (at !== undefined && now - at < REMEMBER_EVERY_MS) return;
  written.set(db, key, now);
  await db.execute(sql`insert into report_reads (tenant, report, query, day, read_at)
    values (${read.tenant}, ${read.report}, ${query}, ${read.day}::date, ${read.now.toISOString()}::timestamptz)
    on conflict (tenant, report, query) do update set day = excluded.day, read_at = excluded.read_at`);
}

interface WarmResult {
  /** Reads made again. */
  warmed: number;
  /** Reads that failed (a report gone, an agent deleted): reported, not retried before their next run. */
  failed: { report: string; query: string; error: string }[];
}

/**
 * Reads again the reports read within `WARM_FOR_MS` before `now`, the most recent `MAX_WARM_READS`, one after the
 * other (each computes only what is stale: a read whose days were not rolled up since costs its stamp's query).
 */
export async function warmReads(
  db: Executor,
  now: Date,
  { max = MAX_WARM_READS, withinMs = WARM_FOR_MS }: { max?: number; withinMs?: number } = {},
): Promise<WarmResult> {
  const t = now.getTime();
  const rows = rowsOf<{ tenant: number; report: string; query: string; day: string }>(
    await db.execute(sql`select tenant, report, query, day::text as day from report_reads
      where read_at >= ${new Date(t - withinMs).toISOString()}::timestamptz
      order by read_at desc limit ${max}`),
  );
  const out: WarmResult = { warmed: 0, failed: [] };
  const zones = new Map<number, ReadAt>();
  for (const r of rows) {
    const replay = replays.get(r.report);
    if (!replay) continue;
    const tenant = Number(r.tenant);
    try {
      let at = zones.get(tenant);
      if (at === undefined) {
        const timeZone = await timeZoneOf(db, tenant);
        at = { today: dayOf(now, timeZone), timeZone };
        zones.set(tenant, at);
      }
      const { today } = at;
      const query = JSON.parse(r.query) as ReadQuery;
      const day = String(r.day).slice(0, 10);
      if (
        typeof query.from === 'string' &&
        typeof query.to === 'string' &&
        isDay(query.from) &&
        isDay(query.to)
      ) {
        const moved = movedPeriod({ from: query.from, to: query.to }, day, today);
        query.from = moved.from;
        query.to = moved.to;
      }
      await replay(db, tenant, query, at);
      out.warmed++;
    } catch (err) {
      out.failed.push({ report: r.report, query: r.query, error: (err as Error).message });
    }
  }
  return out;
}
