import { type SQL, sql } from 'drizzle-orm';
import { addDays, type Period } from '../../../common/period';
import { eachRowWithBytes } from '../../db/copy-out';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import {
  ATTRIBUTED_SUMS,
  blockPairs,
  cover,
  LATE_DAYS,
  type MergedSketch,
  periodParts,
  RETURN_DAYS,
  SketchArena,
  splitPeriod,
  Union,
} from '../statistics/reporting';

/**
 * Each channel's figures over a period for the all-agents stat, read over aligned blocks of days
 * (attributed-blocks.ts): the period, its matured part (quality) and each settled period within it are covered by
 * their largest aligned blocks (`cover`), about 2·log2(days) pieces each, level 0 being the daily rows. Sums add up
 * and sketches merge (register-wise maximum) the same over blocks as over days, so the figures are the ones every
 * day's rows give.
 *
 * With `cache` (the stat's route), what a period's older days give is cached between reads, since the rollup that runs
 * every minute rewrites only the last days. A rollup of day d rewrites d's sketches, and the sums of d and of the
 * `RETURN_DAYS` days before it (their idle and retained counts); it marks the days whose sums it rewrote (`gen` of
 * `stat_rolled_days`) and the day whose sketches it rewrote (`day_gen`). So:
 * - the sums of the days before the period's last `RETURN_DAYS + 1` are cached with the newest `gen` over them;
 * - the sketches are split as the reports' periods are (`splitPeriod`, with the period's last day as today): the union
 *   of the older days' sketches and that of the late days' (`LATE_DAYS`), channel by channel, each under the newest
 *   `day_gen` over its days;
 * - the next read reads only the pieces of the days after those (after a rollup of today: today's), and adds or
 *   merges (`Union.estimateWith`: only the registers read are looked up in the cached union).
 * A rollup of an older day changes a stamp: the next read reads every piece again. So the figures are always the ones
 * all the pieces give; only where the reading starts differs.
 */

/** The sums of the period (indexes into `ChannelFigures.period`); amounts in cents, so that sums stay exact. */
export const P = {
  pageViews: 0,
  signups: 1,
  payers: 2,
  recharges: 3,
  amount: 4,
  sharedAddress: 5,
  sharedDevice: 6,
};
/** The daily figures the period's sums read: every attributed sum but the return counts (in the matured part). */
const P_COLS = ATTRIBUTED_SUMS.filter((c) => c !== 'idle' && c !== 'retained');
/** The sums of the matured part: signups, idle, retained. */
const M_COLS = ['signups', 'idle', 'retained'];
/** The live sums of settled days: signups, payers, recharges, amount (cents). */
const L_COLS = ['signups', 'payers', 'recharges', 'recharge_amount'];

interface ChannelFigures {
  period: number[];
  matured: number[];
  settled: number[];
  visitors: number;
  addresses: number;
}

interface CachedSums {
  /** Per channel: the older days' sums, their matured figures, the older settled days' live sums. */
  sums: Map<string, { period: number[]; matured: number[]; settled: number[] }>;
}
interface CachedUnions {
  unions: Map<string, { v: MergedSketch; a: MergedSketch }>;
}

/** Cached parts per database handle (several periods, several tenants), least recently used dropped first. */
const parts = periodParts<CachedSums | CachedUnions>(32);

const num = (v: unknown) => Number(v ?? 0);
const keysOf = (kind: string, n: number) => Array.from({ length: n }, (_, i) => `${kind}${i}`);
const KEYS = {
  o: keysOf('o', 7),
  n: keysOf('n', 7),
  m: keysOf('m', 3),
  l: keysOf('l', 4),
  lo: keysOf('lo', 4),
  om: keysOf('om', 3),
};
/** The parts a piece of the sums is read for: the older days, the last days, the days after the matured part, the
 * matured part apart, the settled days' live sums, those of the older days. */
const PARTS = ['o', 'n', 'x', 'm', 'l', 'lo'];

/** A row's sums of one kind; the amount (at `amount`) in cents. */
const sumsOf = (r: Record<string, unknown>, keys: string[], amount: number) =>
  keys.map((k, i) => (i === amount ? Math.round(num(r[k]) * 100) : num(r[k])));
const addTo = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) a[i] += b[i];
  return a;
};

// The sketches as they are stored: read row by row into one buffer (`eachRowWithBytes`, `SketchArena`), through a
// binary COPY on PostgreSQL (node-postgres would take each in as hex text), each row garbage once copied there.
const SKETCHES = sql.raw('visitors, addresses');

type Piece = { level: number; start: string };
/** Which part of the period a sketch row is of: the older days (cached), the late days (cached apart), the last day. */
type Part = 'o' | 'y' | 'n';
function sketchesSql(tenant: number, pieces: Piece[], part: Part): SQL[] {
  const days = pieces.filter((x) => x.level === 0).map((x) => sql`${x.start}::date`);
  const blocks = pieces.filter((x) => x.level > 0);
  const mark = sql.raw(`'${part}'`);
  const out: SQL[] = [];
  if (days.length)
    out.push(sql`select channel, ${mark} as part, ${SKETCHES} from stat_attributed_daily
      where tenant = ${tenant} and day in (${sql.join(days, sql`, `)}) and channel <> ''`);
  if (blocks.length)
    out.push(sql`select channel, ${mark} as part, ${SKETCHES} from stat_attributed_block_sketches
      where tenant = ${tenant} and (level, start) in (${blockPairs(blocks)}) and channel <> ''`);
  return out;
}
/** A sketch row: its channel and part, and where its two sketches lie in the read's `SketchArena`. */
type SketchRow = { channel: string; part: Part; v: number; vEnd: number; a: number; aEnd: number };

/** Rows' indexes per channel, in order, of one part. */
function byChannel(rows: SketchRow[], part: Part) {
  const out = new Map<string, number[]>();
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].part !== part) continue;
    const list = out.get(rows[i].channel);
    if (list) list.push(i);
    else out.set(rows[i].channel, [i]);
  }
  return out;
}

/**
 * The figures of every channel with rows in the period: the period's sums, its matured part's (to `maturedTo`), the
 * live sums of the settled days within it (each settled period clipped to it), unique visitors and addresses.
 */
export async function periodFigures(
  db: Executor,
  at: { tenant: number; period: Period; maturedTo: string; cache: boolean },
): Promise<Map<string, ChannelFigures>> {
  const { tenant, period, maturedTo, cache } = at;
  // What is cached ends `LATE_DAYS` earlier than the rollups of today alone would allow (late events for yesterday).
  const recentFrom = addDays(period.to, -RETURN_DAYS - LATE_DAYS);
  const olderTo = addDays(recentFrom, -1);
  const splitSums = cache && period.from < recentFrom;
  // The matured part (to `maturedTo`, a week before today) is the older days' matured figures, cached, and those of the
  // days after them up to `maturedTo`, read; unless it ends before the older days do (a period long past).
  const maturedSplit = splitSums && maturedTo >= olderTo;
  // The split (`splitPeriod`, its last day as today: the late days, between the cached union and the last day, have
  // their sketches cached apart), its stamps, and the settled periods within this one (clipped to it), read at once.
  // The sketches depend on the stamps only: their reading, the longest part of a read, starts before the settled
  // periods are in.
  const splitRead = cache
    ? splitPeriod(db, { tenant, period, today: period.to, sumsTo: olderTo })
    : Promise.resolve(null);
  const settlementsRead = db
    .execute(sql`select a.channel, greatest(s.from_day, ${period.from}::date)::text as "from",
        least(s.to_day, ${period.to}::date)::text as "to"
      from agent_settlements s join agents a on a.id = s.agent_id
      where s.tenant = ${tenant} and s.from_day <= ${period.to}::date and s.to_day >= ${period.from}::date
      order by a.channel, s.from_day`)
    .then((r) => rowsOf<{ channel: string; from: string; to: string }>(r));
  settlementsRead.catch(() => {}); // awaited below; a failure meanwhile must not go unhandled
  const split = await splitRead;
  const splitSketches = !!split;
  const splitLate = !!split?.late;
  const unions = ['u', tenant];
  let cachedUnions = split ? parts.get<CachedUnions>(db, unions, split, 'older') : undefined;
  let cachedLate = split?.late ? parts.get<CachedUnions>(db, unions, split, 'late') : undefined;
  const sketchParts = [
    // Split, the cached union ends at the late days (or just before the last day, without any): the last day is read.
    ...sketchesSql(tenant, cover(splitSketches ? period.to : period.from, period.to), 'n'),
    ...(split?.late && !cachedLate ? sketchesSql(tenant, cover(split.late.from, split.late.to), 'y') : []),
    ...(split && !cachedUnions ? sketchesSql(tenant, cover(period.from, split.older.to), 'o') : []),
  ];
  const v = new Union();
  const a = new Union();
  const arena = SketchArena.take();
  const sketchRows: SketchRow[] = [];
  const sketchesRead = eachRowWithBytes(
    db,
    sql.join(sketchParts, sql` union all `),
    { channel: 'text', part: 'text', visitors: 'bytea', addresses: 'bytea' },
    (r) => {
      const visitorsAt = arena.put(r.visitors as Uint8Array | null);
      const visitorsEnd = arena.length;
      const addressesAt = arena.put(r.addresses as Uint8Array | null);
      sketchRows.push({
        channel: String(r.channel),
        part: r.part as Part,
        v: visitorsAt,
        vEnd: visitorsEnd,
        a: addressesAt,
        aEnd: arena.length,
      });
    },
  );
  sketchesRead.catch(() => {}); // awaited below

  const settlements = await settlementsRead;
  const settledOlder = splitSums
    ? settlements.filter((x) => x.from <= olderTo).map((x) => ({ ...x, to: x.to < olderTo ? x.to : olderTo }))
    : [];
  const settledNewer = splitSums
    ? settlements
        .filter((x) => x.to >= recentFrom)
        .map((x) => ({ ...x, from: x.from > recentFrom ? x.from : recentFrom }))
    : settlements;
  // The older days' sums, under the newest `gen` over them (`sumsGen`); a rollup that moves the older sketches' stamp
  // moves it too (it rewrites the sums of the days before the day it rolls).
  const sumsScope = split && [
    's',
    tenant,
    olderTo,
    settledOlder.map((x) => `${x.channel}:${x.from}:${x.to}`).join(','),
    split.sumsGen,
  ];
  let sumCache = splitSums && sumsScope ? parts.get<CachedSums>(db, sumsScope, split, 'older') : undefined;
  // The days whose sums are read ('n'). The matured part is those of them up to `maturedTo` when it starts with them:
  // they less the days after `maturedTo` ('x'; sums subtract), fewer pieces than covering it apart ('m'), which is
  // left for a matured part that starts before them (a long period, split, ending before the older days do).
  const nFrom = splitSums ? recentFrom : period.from;
  const maturedWithin = (!splitSums || maturedSplit) && maturedTo >= nFrom;
  const pieces = [
    ...(splitSums && !sumCache ? cover(period.from, olderTo).map((p) => ({ kind: 'o', ...p })) : []),
    ...cover(nFrom, period.to).map((p) => ({ kind: 'n', ...p })),
    ...(maturedWithin
      ? maturedTo < period.to
        ? cover(addDays(maturedTo, 1), period.to).map((p) => ({ kind: 'x', ...p }))
        : []
      : splitSums && !maturedSplit && period.from <= maturedTo
        ? cover(period.from, maturedTo).map((p) => ({ kind: 'm', ...p }))
        : []),
  ];
  const settledPieces = [
    ...settledNewer.flatMap((x) => cover(x.from, x.to).map((p) => ({ kind: 'l', channel: x.channel, ...p }))),
    ...(splitSums && !sumCache
      ? settledOlder.flatMap((x) =>
          cover(x.from, x.to).map((p) => ({ kind: 'lo', channel: x.channel, ...p })),
        )
      : []),
  ];
  const older = pieces.some((p) => p.kind === 'o');
  // A piece of several parts (the matured part's 'x' pieces are mostly the last days' 'n' pieces too) is read once:
  // its `kind` is each part's letter ('nx').
  const merged = new Map<string, { kind: string; level: number; start: string }>();
  for (const x of pieces) {
    const at = `${x.level}|${x.start}`;
    const had = merged.get(at);
    if (had) had.kind += x.kind;
    else merged.set(at, { ...x });
  }
  const read = [...merged.values()];
  // Each part a boolean per piece (`k_n`…), computed once per piece in `p` and `l` and carried by each row read,
  // rather than a test of the kind's text in every one of some thirty filtered sums of every row.
  const sumOf = (c: string, kind: string) => `sum(${c}) filter (where k_${kind})`;
  const flags = sql.raw(PARTS.map((k) => `k_${k}`).join(', '));
  const flagsOf = (test: (k: string) => string) =>
    sql.raw(PARTS.map((k) => `${test(k)} as k_${k}`).join(', '));
  const cols = [
    ...(older ? P_COLS.map((c, i) => `${sumOf(c, 'o')} as o${i}`) : []),
    ...(older ? M_COLS.map((c, i) => `${sumOf(c, 'o')} as om${i}`) : []),
    ...P_COLS.map((c, i) => `${sumOf(c, 'n')} as n${i}`),
    ...(maturedWithin
      ? M_COLS.map((c, i) => `coalesce(${sumOf(c, 'n')}, 0) - coalesce(${sumOf(c, 'x')}, 0) as m${i}`)
      : pieces.some((p) => p.kind === 'm')
        ? M_COLS.map((c, i) => `${sumOf(c, 'm')} as m${i}`)
        : []),
    ...L_COLS.map((c, i) => `${sumOf(c, 'l')} as l${i}`),
    ...(older ? L_COLS.map((c, i) => `${sumOf(c, 'lo')} as lo${i}`) : []),
  ];
  const all = ATTRIBUTED_SUMS.join(', ');
  const sums = db
    .execute(sql`with p as (select level, start, ${flagsOf((k) => (k.startsWith('l') ? 'false' : `strpos(kind, '${k}') > 0`))}
        from unnest(${sql.param(read.map((x) => x.kind))}::text[], ${sql.param(read.map((x) => x.level))}::int[],
          ${sql.param(read.map((x) => x.start))}::date[]) as u (kind, level, start)),
      l as (select channel, level, start, ${flagsOf((k) => (k.startsWith('l') ? `kind = '${k}'` : 'false'))}
        from unnest(${sql.param(settledPieces.map((x) => x.kind))}::text[],
          ${sql.param(settledPieces.map((x) => x.channel))}::text[], ${sql.param(settledPieces.map((x) => x.level))}::int[],
          ${sql.param(settledPieces.map((x) => x.start))}::date[]) as u (kind, channel, level, start)),
      x as (select ${flags}, d.channel, ${sql.raw(all)} from p join stat_attributed_daily d
          on p.level = 0 and d.tenant = ${tenant} and d.day = p.start
        union all select ${flags}, b.channel, ${sql.raw(all)} from p join stat_attributed_blocks b
          on p.level > 0 and b.tenant = ${tenant} and b.level = p.level and b.start = p.start
        union all select ${flags}, d.channel, ${sql.raw(all)} from l join stat_attributed_daily d
          on l.level = 0 and d.tenant = ${tenant} and d.day = l.start and d.channel = l.channel
        union all select ${flags}, b.channel, ${sql.raw(all)} from l join stat_attributed_blocks b
          on l.level > 0 and b.tenant = ${tenant} and b.level = l.level and b.start = l.start and b.channel = l.channel)
      select channel, ${sql.raw(cols.join(', '))} from x where channel <> '' group by channel`)
    .then((r) => rowsOf<Record<string, unknown>>(r));
  const [sumRows] = await Promise.all([sums, sketchesRead]);
  const bytes = arena.bytes;
  const addRow = (row: SketchRow) => {
    v.add(bytes, row.v, row.vEnd);
    a.add(bytes, row.a, row.aEnd);
  };

  if (splitSums && !sumCache) {
    sumCache = { sums: new Map() };
    for (const r of sumRows)
      sumCache.sums.set(String(r.channel), {
        period: sumsOf(r, KEYS.o, P.amount),
        matured: sumsOf(r, KEYS.om, -1),
        settled: sumsOf(r, KEYS.lo, 3),
      });
    parts.set(db, sumsScope!, split!, 'older', sumCache);
  }
  const partOf = (part: Part, of: 'older' | 'late') => {
    const cached: CachedUnions = { unions: new Map() };
    for (const [channel, list] of byChannel(sketchRows, part)) {
      for (const i of list) addRow(sketchRows[i]);
      cached.unions.set(channel, { v: v.merged(), a: a.merged() });
    }
    parts.set(db, unions, split!, of, cached);
    return cached;
  };
  if (splitSketches && !cachedUnions) cachedUnions = partOf('o', 'older');
  if (splitLate && !cachedLate) cachedLate = partOf('y', 'late');

  const out = new Map<string, ChannelFigures>();
  const rowOf = new Map(sumRows.map((r) => [String(r.channel), r]));
  const newerRows = byChannel(sketchRows, 'n');
  const channels = new Set([
    ...(sumCache?.sums.keys() ?? []),
    ...(cachedUnions?.unions.keys() ?? []),
    ...(cachedLate?.unions.keys() ?? []),
    ...rowOf.keys(),
    ...newerRows.keys(),
  ]);
  for (const channel of channels) {
    const r = rowOf.get(channel) ?? {};
    const k = sumCache?.sums.get(channel);
    const sums = sumsOf(r, KEYS.n, P.amount);
    const settled = sumsOf(r, KEYS.l, 3);
    if (k) {
      addTo(sums, k.period);
      addTo(settled, k.settled);
    }
    const late = cachedLate?.unions.get(channel);
    if (late) {
      v.addMerged(late.v);
      a.addMerged(late.a);
    }
    for (const i of newerRows.get(channel) ?? []) addRow(sketchRows[i]);
    const u = cachedUnions?.unions.get(channel);
    out.set(channel, {
      period: sums,
      matured: maturedSplit && k ? addTo(sumsOf(r, KEYS.m, -1), k.matured) : sumsOf(r, KEYS.m, -1),
      settled,
      visitors: v.estimateWith(u?.v),
      addresses: a.estimateWith(u?.a),
    });
  }
  // Given back on success only: after a failure the sketches' stream may still be writing into it (Promise.all
  // rejects at the first failure), and a next read taking it back would read those bytes.
  arena.release();
  return out;
}
