import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type SQL, sql } from 'drizzle-orm';
import { addDays, dayOf, daysIn, eachDay, type Period, previousPeriod } from '../../../common/period';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { jsonResponse, ok } from '../../core/envelope';
import { invalidField } from '../../core/errors';
import { createRoute } from '../../core/route';
import { intQuery, rejectUnknownQuery } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import {
  cachedAnswer,
  cachePerDb,
  type MergedSketch,
  periodParts,
  periodQuery,
  type ReportAnswer,
  replayable,
  splitPeriod,
  sqlKey,
  timeZoneOf,
  Union,
} from '../statistics/reporting';

/** The longest period a report reads. */
const MAX_REPORT_DAYS = 366;
const AD_FIGURES = [
  'requests',
  'impressions',
  'clicks',
  'ctr',
  'clickers',
  'revenue',
  'ecpm',
  'cpc',
  'idle',
] as const;
type Figures = Record<string, number>;

/** What a report groups by, and which rows it reads. */
export type Grouping = 'position' | 'advertiser' | 'ad' | 'day';
export interface AdReportQuery {
  tenant: number;
  timeZone: string;
  period: Period;
  group: Grouping;
  scope?: SQL;
  /** The tenant's today: the days before it are read once and cached (`periodSums`); none, every read reads all. */
  today?: string;
  /** `adsVersion` when read: what cached parts depend on besides the rollups. */
  version?: string;
}

interface Sums {
  requests: number;
  impressions: number;
  clicks: number;
  revenue: number;
  /**
   * The unique clickers' sketches as read: values of sketches each framed by its length, merged where they lie
   * (`Union.addFramed`), not cut into a view apiece (garbage); and unions cached from earlier reads.
   */
  sketches: Uint8Array[];
  cached: MergedSketch[];
}
const empty = (): Sums => ({ requests: 0, impressions: 0, clicks: 0, revenue: 0, sketches: [], cached: [] });

/** A group's key (grouped by as it is: an integer or a day, not its text, slower to sort). */
const keySql: Record<Grouping, string> = {
  position: 'a.position_id',
  advertiser: 'coalesce(a.advertiser_id, 0)',
  ad: 'a.id',
  day: 'o.day',
};
const monthlyKeySql: Record<Exclude<Grouping, 'day'>, string> = {
  position: 'a.position_id::text',
  advertiser: 'coalesce(a.advertiser_id, 0)::text',
  ad: 'a.id::text',
};

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;
const ratio = (a: number, b: number, d = 4) => (b ? round(a / b, d) : 0);

/** A day's share of a monthly price: the price spread evenly over the days of that day's month. */
const daysInMonth = (day: string) => {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};
export const monthlyShare = (price: number, day: string) => price / daysInMonth(day);

/** How many cached parts of the ads reports each database handle caches (sums, and monthly lists), per kind. */
const MAX_CACHED_SUMS = 64;
/** Whole periods' sums cached (`periodSums`): a few reports' periods and their comparisons. */
const MAX_CACHED_WHOLE = 16;

/** Monthly-priced materials' lists cached per database handle while the materials are as they were (`q.version`). */
const monthlyCache = cachePerDb<Record<string, unknown>[]>(MAX_CACHED_SUMS);

/**
 * The monthly-priced materials booked in the period (fallbacks earn nothing), each with its group key and its first
 * and last day booked in the tenant's time zone, computed by SQL (Intl in JavaScript
 * costs a date conversion per material on every read). With `q.version` (the materials as they are, `adsVersion`) every such material is read once and cached
 * while that version holds; the period is then picked here.
 */
async function monthlyOf(db: Executor, q: AdReportQuery): Promise<Record<string, unknown>[]> {
  const scope = q.scope ? sql` and ${q.scope}` : sql``;
  const tz = sql.raw(`'${q.timeZone.replace(/'/g, "''")}'`);
  const read = (within: SQL) =>
    db
      .execute(sql`
      select ${sql.raw(q.group === 'day' ? "''" : monthlyKeySql[q.group])} as key, a.price,
        (a.start_at at time zone ${tz})::date::text as first_day,
        ((a.end_at - interval '1 millisecond') at time zone ${tz})::date::text as last_day
      from ads a
      where a.tenant = ${q.tenant} and a.pricing = 'monthly' and a.price > 0
        and not exists (select 1 from ad_positions p where p.fallback_ad_id = a.id)${within}${scope}`)
      .then((r) => rowsOf<Record<string, unknown>>(r));
  if (q.version === undefined)
    return read(sql` and a.start_at < ${new Date(`${addDays(q.period.to, 2)}T00:00:00Z`)}
        and (a.end_at is null or a.end_at > ${new Date(`${addDays(q.period.from, -2)}T00:00:00Z`)})`);
  const key = JSON.stringify([q.tenant, q.group, q.timeZone, sqlKey(q.scope), figuresPart(q.version)]);
  const all = await monthlyCache.orRead(db, key, () => read(sql``));
  return all.filter(
    (m) => String(m.first_day) <= q.period.to && (m.last_day === null || String(m.last_day) >= q.period.from),
  );
}

/** The materials, positions and advertisers as they are, as one text that changes with any write to them. */
async function adsVersion(db: Executor, tenant: number): Promise<string> {
  const [row] = rowsOf<{ v: string }>(await db.execute(sql`select ${adsStamp(tenant)} as v`));
  return String(row?.v ?? '');
}

/**
 * Sums per group over a period, from the object rollup only (`stat_object_daily`, object_type `ad`) joined with the
 * materials as they are now: requests are impressions of every material, fallbacks included; impressions, clicks,
 * unique clickers and revenue those of the booked (non-fallback) ones. Revenue follows each material's pricing
 * model: CPM per thousand impressions, CPC per click, CPA per attributed signup or recharge; a monthly price is
 * spread over the days of each month it is booked (start to end, in the tenant's time zone), whatever its traffic.
 * The fallbacks are one hashed join, not a subquery per row: with the subquery, PostgreSQL's row estimate
 * passes jit_above_cost at a few months of a thousand materials, and compiling then costs more than the read.
 */
async function groupSums(db: Executor, q: AdReportQuery): Promise<Map<string, Sums>> {
  const scope = q.scope ? sql` and ${q.scope}` : sql``;
  const key = sql.raw(keySql[q.group]);
  // Grouped by material or its position or advertiser, each material's days are summed first (integers; its
  // clickers' sketches concatenated), then priced once: a material's price and pricing are the same every day, so
  // revenue is the same exact numeric sum, without numeric arithmetic on each of 90 days × 1,000 materials. By day,
  // each row is priced. CPM revenue is the group's sum of impressions × price divided by 1,000 once (exact in numeric,
  // as dividing each row is): a division per material row is computed for every row of `ads` the join reads.
  const perMaterial = q.group !== 'day';
  const o = perMaterial
    ? sql`(select object_id, sum(impressions) as impressions, sum(clicks) as clicks,
          sum(signups + recharges) as conversions,
          string_agg(int4send(length(clickers)) || clickers, ''::bytea) filter (where length(clickers) > 0) as clickers
        from stat_object_daily
        where tenant = ${q.tenant} and object_type = 'ad' and object_id <> 0
          and day between ${q.period.from}::date and ${q.period.to}::date
        group by object_id)`
    : sql`(select object_id, day, impressions, clicks, signups + recharges as conversions,
          case when length(clickers) > 0 then int4send(length(clickers)) || clickers end as clickers
        from stat_object_daily
        where tenant = ${q.tenant} and object_type = 'ad' and object_id <> 0
          and day between ${q.period.from}::date and ${q.period.to}::date)`;
  // The rollup rows and the monthly prices, read at once.
  const [rows, monthly] = await Promise.all([
    db
      .execute(sql`
      select (${key})::text as key,
        sum(o.impressions) as requests,
        sum(o.impressions) filter (where not fb) as impressions,
        sum(o.clicks) filter (where not fb) as clicks,
        coalesce(sum(case a.pricing when 'cpc' then o.clicks * a.price when 'cpa' then o.conversions * a.price end)
            filter (where not fb), 0)
          + coalesce(sum(o.impressions * a.price) filter (where not fb and a.pricing = 'cpm') / 1000, 0) as revenue,
        string_agg(o.clickers, ''::bytea) filter (where not fb and o.clickers is not null) as sk
      from ${o} o
      join (select a.id, a.position_id, a.advertiser_id, a.pricing, a.price,
              f.id is not null as fb
            from ads a
            left join (select distinct fallback_ad_id as id from ad_positions
                       where tenant = ${q.tenant} and fallback_ad_id is not null) f on f.id = a.id
            where a.tenant = ${q.tenant}) a on a.id = o.object_id
      where true${scope}
      group by ${key}`)
      .then((r) => rowsOf<Record<string, unknown>>(r)),
    monthlyOf(db, q),
  ]);
  const out = new Map<string, Sums>();
  for (const r of rows)
    out.set(String(r.key), {
      requests: num(r.requests),
      impressions: num(r.impressions),
      clicks: num(r.clicks),
      revenue: num(r.revenue),
      sketches: r.sk ? [r.sk as Uint8Array] : [],
      cached: [],
    });
  // The period's days and their months' lengths once (not per material: 2,500 monthly materials × 90 days).
  const days = monthly.length ? eachDay(q.period.from, q.period.to) : [];
  const monthDays = days.map(daysInMonth);
  for (const m of monthly) {
    const first = String(m.first_day);
    const last = m.last_day === null || m.last_day === undefined ? null : String(m.last_day);
    const price = num(m.price);
    let s: Sums | undefined;
    for (let i = 0; i < days.length; i++) {
      const day = days[i];
      if (day < first || (last !== null && day > last)) continue;
      const key = q.group === 'day' ? day : String(m.key);
      if (!s || q.group === 'day') {
        s = out.get(key);
        if (!s) {
          s = empty();
          out.set(key, s);
        }
      }
      s.revenue += price / monthDays[i]; // monthlyShare(price, day)
    }
  }
  return out;
}

/** The figures of summed rows; `idle` needs the group's fallback impressions and its average eCPM. */
export function figuresOf(s: Sums, idleEcpm?: number, withUniques = true): Figures {
  const revenue = round(s.revenue, 2);
  const ecpm = s.impressions ? round((s.revenue / s.impressions) * 1000, 2) : 0;
  const unpaid = s.requests - s.impressions;
  return {
    requests: s.requests,
    impressions: s.impressions,
    clicks: s.clicks,
    ctr: ratio(s.clicks, s.impressions),
    clickers: withUniques ? clickersOf(s) : 0,
    revenue,
    ecpm,
    cpc: s.clicks ? round(s.revenue / s.clicks, 2) : 0,
    idle: round((unpaid * (idleEcpm ?? ecpm)) / 1000, 2),
  };
}

/** Every group summed; the groups' cached clickers as their union when `periodSums` cached one (one lookup, not a merge of each). */
const sumAll = (groups: GroupSums): Sums => {
  const t = empty();
  for (const s of groups.values()) {
    t.requests += s.requests;
    t.impressions += s.impressions;
    t.clicks += s.clicks;
    t.revenue += s.revenue;
    t.sketches.push(...s.sketches);
    if (!groups.totalUnion) t.cached.push(...s.cached);
  }
  if (groups.totalUnion) t.cached.push(groups.totalUnion);
  return t;
};

const union = new Union();
/** Unique clickers of summed rows: their sketches and cached unions merged. */
function clickersOf(s: Sums): number {
  for (const x of s.sketches) union.addFramed(x);
  if (s.cached.length === 1) return union.estimateWith(s.cached[0]);
  for (const k of s.cached) union.addMerged(k);
  return union.estimate();
}

/**
 * What an ads report depends on besides the rollups, as one text: `figures;names`, the tenant's counters in
 * `ad_report_stamps` (cached by triggers). The figures part moves with what the sums are computed from
 * (a material's or position's `report_version`: position, advertiser, pricing, price, booking,
 * fallback; a created or deleted row): the cached period sums and monthly lists depend on it alone (`figuresPart`). The
 * names part moves with any write to the materials, positions and advertisers: a whole answer, which shows their
 * names, depends on both. A tenant nothing was written for yet has no row: `0;0`.
 */
export const adsStamp = (tenant: number) =>
  sql`coalesce((select figures::text || ';' || names::text from ad_report_stamps where tenant = ${tenant}), '0;0')`;

/** The part of an `adsStamp` the cached sums depend on: the materials' and positions' figures. */
const figuresPart = (stamp: string) => stamp.split(';')[0];

/**
 * Cached sums per database handle (`periodSums`): the older days' and the late days' of a few reports' periods and
 * their comparisons, and whole periods' (read-only to their readers).
 */
const sumParts = periodParts<Map<string, Sums>>(MAX_CACHED_SUMS + MAX_CACHED_WHOLE);
/** The union of every group's cached clickers, per cached part (`periodSums`): the totals row's estimate starts from it. */
const totalUnions = new WeakMap<Map<string, Sums>, MergedSketch>();

/** Groups' sums from `periodSums`, with the union of their cached clickers when one was cached. */
type GroupSums = Map<string, Sums> & { totalUnion?: MergedSketch };

/**
 * `groupSums` over a period, the days before yesterday read once and cached: a day's object rows change only when the
 * rollup recomputes that day itself (`stat_rolled_days.day_gen`), so while no day of them is
 * recomputed and nothing they are computed from changes (`figuresPart` of `adsStamp`), their sums and the union of their
 * clickers' sketches per group stay as they were (with their union over every group, for the totals row). The late
 * days up to yesterday (`LATE_DAYS`: late events for them are common) are cached apart under their own stamp, and
 * each read adds today's rows (the rollup runs every minute on today); the sum of the three is cached too, under the
 * three stamps, until the next rollup of today. A period that ends before that is cached whole.
 */
export async function periodSums(db: Executor, q: AdReportQuery): Promise<GroupSums> {
  const split = q.today
    ? await splitPeriod(db, {
        tenant: q.tenant,
        period: q.period,
        today: q.today,
        also: q.version === undefined ? adsStamp(q.tenant) : undefined,
      })
    : null;
  if (!split) return groupSums(db, q);
  const scope = [q.tenant, q.group, q.timeZone, sqlKey(q.scope), figuresPart(q.version ?? split.also)];
  // The whole period's sums, cached under all three parts' stamps: a read after an edit that leaves the figures as they
  // were (a rename, a link, a pause) relabels them without reading today's rows again.
  const whole = sumParts.get<GroupSums>(db, scope, split, 'all');
  if (whole) return whole;
  const { older, late, recent } = split;
  const fresh = recent ? await groupSums(db, { ...q, period: recent }) : new Map<string, Sums>();
  const cached = await sumParts.orRead(db, scope, split, 'older', async () => {
    const read = new Map<string, Sums>();
    for (const [k, s] of await groupSums(db, { ...q, period: older })) {
      for (const x of s.sketches) union.addFramed(x);
      read.set(k, { ...s, sketches: [], cached: [union.merged()] });
    }
    for (const s of read.values()) union.addMerged(s.cached[0]);
    totalUnions.set(read, union.merged());
    return read;
  });
  // The late days' sums as read, their sketches as stored (few: merged at the estimate with today's).
  const lateSums = late
    ? await sumParts.orRead(db, scope, split, 'late', () => groupSums(db, { ...q, period: late }))
    : new Map<string, Sums>();
  const out: GroupSums = new Map<string, Sums>();
  out.totalUnion = totalUnions.get(cached);
  for (const k of new Set([...cached.keys(), ...lateSums.keys(), ...fresh.keys()])) {
    const a = cached.get(k) ?? empty();
    const y = lateSums.get(k) ?? empty();
    const b = fresh.get(k) ?? empty();
    out.set(k, {
      requests: a.requests + y.requests + b.requests,
      impressions: a.impressions + y.impressions + b.impressions,
      clicks: a.clicks + y.clicks + b.clicks,
      revenue: a.revenue + y.revenue + b.revenue,
      sketches: y.sketches.length ? [...y.sketches, ...b.sketches] : b.sketches,
      cached: a.cached,
    });
  }
  sumParts.set(db, scope, split, 'all', out);
  return out;
}

const baseQuery = periodQuery(['key', 'label', ...AD_FIGURES]);

const Answer = z
  .object({
    list: z.array(z.record(z.string(), z.any())),
    total: z.number(),
    totals: z.record(z.string(), z.any()),
    previousTotals: z.record(z.string(), z.any()).optional(),
    series: z.array(z.record(z.string(), z.any())),
  })
  .openapi('AdReport');

type Name = 'positions' | 'advertisers' | 'materials' | 'daily' | 'advertiser' | 'position' | 'material';
const queries = {
  positions: z.object(baseQuery),
  advertisers: z.object(baseQuery),
  materials: z.object(baseQuery),
  daily: z.object(baseQuery),
  advertiser: z.object({ ...baseQuery, advertiserId: intQuery() }),
  position: z.object({ ...baseQuery, positionId: intQuery() }),
  material: z.object({ ...baseQuery, adId: intQuery() }),
};
const summaries: Record<Name, string> = {
  positions:
    'Overview per position: requests, impressions, clicks, CTR, unique clickers, revenue, eCPM, CPC and idle inventory (fallback impressions × the average eCPM)',
  advertisers: 'Overview per advertiser (key 0: materials without one)',
  materials: 'Overview per material',
  daily: 'Ad revenue and traffic per day (compare=true: each day against the day before)',
  advertiser: "One advertiser's figures per day",
  position: "One position's figures per day, with its idle inventory",
  material: "One material's figures per day",
};

async function periodOf(c: AppContext, q: { from?: string; to?: string }, timeZone: string): Promise<Period> {
  const today = dayOf(c.get('deps').clock.now(), timeZone);
  const from = q.from ?? q.to ?? today;
  const to = q.to ?? today;
  if (to < from) throw invalidField('to', 'stats.toBeforeFrom');
  if (daysIn(from, to) > MAX_REPORT_DAYS)
    throw invalidField('to', 'stats.periodTooLong', { days: MAX_REPORT_DAYS });
  return { from, to };
}

async function labelsOf(db: Executor, tenant: number, group: Grouping, keys: string[]) {
  const table = { position: 'ad_positions', advertiser: 'ad_advertisers', ad: 'ads', day: '' }[group];
  const col = group === 'ad' ? 'title' : 'name';
  const ids = keys.map(Number).filter((n) => n > 0);
  if (!table || !ids.length) return new Map<string, string>();
  const rows = rowsOf<{ id: number; label: string }>(
    await db.execute(
      sql`select id, ${sql.raw(col)} as label from ${sql.raw(table)} where tenant = ${tenant} and id = any(${sql.param(ids)}::integer[])`,
    ),
  );
  return new Map(rows.map((r) => [String(r.id), r.label]));
}

/** A report: the period's rows (sorted, paged), totals, the daily series, and the comparison when asked. */
export async function adReport(
  db: Executor,
  base: Omit<AdReportQuery, 'group'>,
  group: Grouping,
  opts: {
    sort?: string;
    order?: 'asc' | 'desc';
    page: number;
    pageSize: number;
    compare: boolean;
    idle: boolean;
  },
) {
  const q = { ...base, group };
  // Read once for every cached part this report uses.
  if (q.today && q.version === undefined) q.version = await adsVersion(db, q.tenant);
  const [groups, days] = await Promise.all([
    periodSums(db, q),
    group === 'day' ? Promise.resolve(null) : periodSums(db, { ...q, group: 'day' }),
  ]);
  const byDay = days ?? groups;
  const totalSums = sumAll(groups);
  const avgEcpm = totalSums.impressions ? (totalSums.revenue / totalSums.impressions) * 1000 : 0;
  // Idle inventory is valued at each position's own average eCPM over the period (the scope's, for day rows).
  let rows: Record<string, any>[];
  if (group === 'day')
    rows = eachDay(q.period.from, q.period.to).map((d) => ({
      key: d,
      date: d,
      ...figuresOf(groups.get(d) ?? empty(), opts.idle ? avgEcpm : 0),
    }));
  else {
    // Labels for every row only when sorted by them; else for the page's rows, below.
    const labels =
      opts.sort === 'label'
        ? await labelsOf(db, q.tenant, group, [...groups.keys()])
        : new Map<string, string>();
    // Unique clickers are estimated for the page's rows only, unless the rows are sorted by them.
    const uniques = opts.sort === 'clickers';
    rows = [...groups].map(([key, s]) => ({
      key,
      label: labels.get(key) ?? null,
      ...figuresOf(s, opts.idle ? undefined : 0, uniques),
    }));
  }
  const sort = opts.sort ?? (group === 'day' ? 'key' : 'revenue');
  const order =
    opts.order ?? (sort === 'key' || sort === 'label' ? (group === 'day' ? 'desc' : 'asc') : 'desc');
  const sign = order === 'desc' ? -1 : 1;
  rows.sort((a, b) => {
    const x = a[sort] ?? '';
    const y = b[sort] ?? '';
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * c || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  });
  const total = rows.length;
  let list = rows.slice((opts.page - 1) * opts.pageSize, opts.page * opts.pageSize);
  if (group !== 'day' && opts.sort !== 'clickers')
    list = list.map((r) => ({ ...r, clickers: clickersOf(groups.get(r.key) ?? empty()) }));
  if (group !== 'day' && opts.sort !== 'label') {
    const labels = await labelsOf(
      db,
      q.tenant,
      group,
      list.map((r) => r.key),
    );
    list = list.map((r) => ({ ...r, label: labels.get(r.key) ?? null }));
  }
  const totals = figuresOf(totalSums, opts.idle ? avgEcpm : 0);
  const series = eachDay(q.period.from, q.period.to).map((d) => ({
    date: d,
    ...figuresOf(byDay.get(d) ?? empty(), opts.idle ? avgEcpm : 0),
  }));
  const out: ReportAnswer = { list, total, totals, series };
  if (opts.compare) {
    const prev = previousPeriod(q.period);
    if (group === 'day') {
      // Each day against the day before.
      const before = await periodSums(db, {
        ...q,
        period: { from: addDays(q.period.from, -1), to: addDays(q.period.to, -1) },
      });
      list = list.map((r) => ({
        ...r,
        previous: figuresOf(before.get(addDays(r.key, -1)) ?? empty(), opts.idle ? avgEcpm : 0),
      }));
    } else {
      const before = await periodSums(db, { ...q, period: prev });
      list = list.map((r) => ({
        ...r,
        previous: figuresOf(before.get(r.key) ?? empty(), opts.idle ? undefined : 0),
      }));
    }
    const prevAll = group === 'day' ? await periodSums(db, { ...q, period: prev }) : null;
    out.list = list;
    const prevSums = sumAll(prevAll ?? (await periodSums(db, { ...q, period: prev })));
    const prevEcpm = prevSums.impressions ? (prevSums.revenue / prevSums.impressions) * 1000 : 0;
    out.previousTotals = figuresOf(prevSums, opts.idle ? prevEcpm : 0);
  }
  return out;
}

type AdQuery = z.infer<typeof queries.material> &
  z.infer<typeof queries.position> &
  z.infer<typeof queries.advertiser>;

/**
 * One ads report as its route serves it (`query`'s period resolved), cached between identical reads while no day of the
 * periods is rolled up again and no material, position or advertiser changed (every write to them moves the stamp,
 * `adsStamp`). An edit that leaves the figures as they were (a name, a link, a pause) recomputes the answer from the
 * cached period sums, which depend on the figures part of the stamp only (`figuresPart`). Read again by the rollup
 * timer after each run while operators read it (warm-reads.ts).
 */
async function adReportAnswer(
  db: Executor,
  name: Name,
  tenant: number,
  q: AdQuery & Period,
  today: string,
  timeZone: string,
) {
  const period = { from: q.from, to: q.to };
  const scope =
    name === 'advertiser'
      ? sql`a.advertiser_id = ${q.advertiserId}`
      : name === 'position'
        ? sql`a.position_id = ${q.positionId}`
        : name === 'material'
          ? sql`a.id = ${q.adId}`
          : undefined;
  const group: Grouping =
    name === 'positions'
      ? 'position'
      : name === 'advertisers'
        ? 'advertiser'
        : name === 'materials'
          ? 'ad'
          : 'day';
  const opts = {
    sort: q.sort,
    order: q.order,
    page: q.page ?? 1,
    pageSize: q.pageSize ?? 20,
    compare: q.compare === 'true',
    idle: name === 'positions' || name === 'position',
  };
  const prev = previousPeriod(period);
  const span = opts.compare ? { from: addDays(prev.from, -1), to: period.to } : period;
  const also = adsStamp(tenant);
  const key = JSON.stringify([
    'ad',
    name,
    tenant,
    timeZone,
    period,
    q.advertiserId,
    q.positionId,
    q.adId,
    opts,
  ]);
  // The materials' version read for the stamp serves the report's cached parts too (`adsVersion`).
  return cachedAnswer(db, { tenant, span, also }, key, (version) =>
    adReport(db, { tenant, timeZone, period, scope, today, version }, group, opts),
  );
}
/** Each report as its route serves it, and the rollup timer's warm-up reads it again (warm-reads.ts). */
const servedReports = Object.fromEntries(
  (Object.keys(queries) as Name[]).map((name) => [
    name,
    replayable(`ad.${name}`, (db, tenant, q: AdQuery & Period, { today, timeZone }) =>
      adReportAnswer(db, name, tenant, q, today, timeZone),
    ),
  ]),
) as Record<
  Name,
  ReturnType<typeof replayable<AdQuery & Period, Awaited<ReturnType<typeof adReportAnswer>>>>
>;

/** The ads reports, mounted at /app/admin/ad/reports: they read only the rollups. */
export function adReportRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  const names = Object.keys(queries) as Name[];
  for (const name of names) {
    const route = createRoute({
      method: 'get',
      path: `/${name}`,
      tags: ['ad reports'],
      security,
      summary: summaries[name],
      description:
        'Reads only the rollups (stat_object_daily, object_type ad). Days are YYYY-MM-DD in the tenant time zone (from/to default to today); compare=true adds the previous period of the same length.',
      middleware: can('ad.read'),
      request: { query: queries[name] },
      responses: jsonResponse(Answer),
    });
    app.openapi(route, async (c) => {
      rejectUnknownQuery(c, queries[name]);
      const q = c.req.valid('query') as AdQuery;
      const db = c.get('deps').db;
      const tenant = tenantOf(c);
      const timeZone = await timeZoneOf(db, tenant);
      const period = await periodOf(c, q, timeZone);
      const now = c.get('deps').clock.now();
      const at = { today: dayOf(now, timeZone), timeZone };
      return ok(c, await servedReports[name](db, { tenant, query: { ...q, ...period }, at, now }));
    });
  }
  return app;
}
