import { type SQL, sql } from 'drizzle-orm';
import { addDays, daysIn, eachDay, type Period, previousPeriod } from '../../../common/period';
import { joinBytes } from '../../core/bytes';
import { arrayParam } from '../../db/array-literal';
import { eachRowWithBytes, rowsWithBytes } from '../../db/copy-out';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { cover } from './blocks';
import { cachedAnswer, periodParts, type Split, splitPeriod, sqlKey, wholeSplit } from './report-cache';
import { estimateFramed, M, type MergedSketch, raiseTo, Union } from './sketch';

type Figures = Record<string, number>;
type Raw = Record<string, unknown>;

/**
 * A report over one rollup table: its key, the additive sums, the sketch columns (unique counts), how the figures
 * are derived from those, and which figures sort in SQL (the others sort after estimating every key's sketch).
 */
export interface ReportDef {
  table: string;
  key: string;
  /** The key of the table's per-day total row (e.g. '' or 0), when it has one. */
  totalKey?: string;
  sums: Record<string, string>;
  sketches: Record<string, string>;
  figures: readonly string[];
  derive(sums: Figures, uniques: Figures): Figures;
  sqlSort: Record<string, string>;
  /**
   * The same sorts from a key's sums, in JavaScript (null sorts last, as `nulls last`): a report with no filter sorts
   * its keys' sums here, the older days' sums cached between reads (`keySums`).
   */
  sortValue: Record<string, (s: Figures) => number | null>;
  /**
   * A table of the same sketches pre-merged over aligned blocks of days (blocks.ts), with the key and scope columns:
   * periods merge their blocks rather than every day.
   */
  blocks?: string;
  /**
   * A table of the sums (each `sum(column)` of `sums`) pre-added over the same aligned blocks, with the key and scope
   * columns: every key's sums over a long period read its blocks rather than every day (`sumsByKey`).
   */
  sumBlocks?: string;
  /**
   * Whether a key has at most one row a day within a report's scope (the table's primary key is the scope's columns,
   * the day and the key): then one day's sums per key are its rows, read without grouping.
   */
  rowPerKeyAndDay?: boolean;
  /**
   * Whether an index leads with the scope and the key before the day (`stat_keyword_daily_key_day_idx`, `stat_object_daily_object_idx`): a page's keys over a
   * range of days then read each key's days as one range, rather than searching the index for each day's keys.
   */
  keyDays?: boolean;
  /** Columns of the daily table holding each sketch's estimate for that row (null when not computed). */
  estimates?: Record<string, string>;
}

/** A period report's answer: a page of rows, how many there are, the totals, the series (per day or hour), and with a
 * comparison the previous period's totals (each row then carries its own `previous`). */
export interface ReportAnswer<Row = Record<string, any>> {
  list: Row[];
  total: number;
  totals: Figures;
  series: Row[];
  previousTotals?: Figures;
}

export interface ReportQuery {
  tenant: number;
  period: Period;
  scope: SQL[];
  /** Filters on rows (a search, a demand-gap `having`): then totals and series are over the matching rows only. */
  filter?: SQL;
  having?: SQL;
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
  compare: boolean;
  /** False: compute afresh on every read (a filter that reads other tables than the rollups). */
  cache?: boolean;
  /** The tenant's today: with it, a report with no filter caches its older days' sums per key (`keySums`). */
  today?: string;
  /**
   * Another report whose row of `key` stands for this one's totals and series when nothing filters it: a domain's
   * visits by any dimension count each of its page views once, under one key, so their totals are the domain's row
   * of the domains report (its blocks and daily estimates), not a union of every key's sketches.
   */
  totalsOf?: { def: ReportDef; key: string };
  /** The key of the total row in place of `def.totalKey` (set from `totalsOf`). */
  totalKey?: string;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
export const ratio = (a: number, b: number, digits = 4) => (b ? round(a / b, digits) : 0);

function figuresOf(def: ReportDef, row: Raw, sketches: Raw = row): Figures {
  const sums: Figures = {};
  for (const k of Object.keys(def.sums)) sums[k] = num(row[k]);
  const uniques: Figures = {};
  for (const k of Object.keys(def.sketches))
    uniques[k] =
      row[`n_${k}`] !== null && row[`n_${k}`] !== undefined
        ? num(row[`n_${k}`])
        : estimateFramed(sketches[`sk_${k}`]);
  return def.derive(sums, uniques);
}

const sumsSql = (def: ReportDef) =>
  sql.raw(
    Object.entries(def.sums)
      .map(([k, e]) => `${e} as "${k}"`)
      .join(', '),
  );
/** The columns the sums add (`sum(x)`: x), or null when a sum is anything else. */
function summed(def: ReportDef): string[] | null {
  const cols = Object.values(def.sums).map((e) => /^sum\((\w+)\)$/.exec(e)?.[1]);
  return cols.every((c) => c) ? (cols as string[]) : null;
}

/** The sums' columns of one row (`sum(x)` as `x`), or null when a sum is anything else. */
function rowSql(def: ReportDef): SQL | null {
  const cols = summed(def);
  if (!cols) return null;
  return sql.raw(
    Object.keys(def.sums)
      .map((k, i) => `${cols[i]} as "${k}"`)
      .join(', '),
  );
}
const sketchSql = (def: ReportDef) =>
  sql.raw(
    Object.entries(def.sketches)
      .map(([k, c]) => `, string_agg(int4send(length(${c})) || ${c}, ''::bytea) as "sk_${k}"`)
      .join(''),
  );

/** The sketch columns of one row as stored (`sk_*`), for `framedSketches`. */
const storedSketchSql = (def: ReportDef) =>
  sql.raw(
    Object.entries(def.sketches)
      .map(([k, c]) => `, ${c} as "sk_${k}"`)
      .join(''),
  );

/**
 * A statement's rows: with sketches (`sk_*` of `def`), those as bytes and its other columns (`names`) as text, read
 * through a binary COPY on PostgreSQL (`rowsWithBytes`: node-postgres takes a `bytea` in as hex text, twice its size);
 * without, as the driver gives them.
 */
function readRows(
  db: Executor,
  def: ReportDef,
  query: SQL,
  names: string[],
  sketches: boolean,
): Promise<Raw[]> {
  if (!sketches) return db.execute(query).then((r) => rowsOf<Raw>(r));
  return rowsWithBytes(db, query, {
    ...Object.fromEntries(names.map((n) => [n, 'text' as const])),
    ...Object.fromEntries(Object.keys(def.sketches).map((k) => [`sk_${k}`, 'bytea' as const])),
  });
}

/**
 * A period's days as a condition: a range, unless rows are looked up by key (a page's keys, the total row). Then each
 * day is listed, so that the index (the scope's columns, the day, the key) is searched for each day's keys: after a
 * range of days, PostgreSQL 15 reads every key of every day in it.
 * A table with an index led by the key (`keyDays`) reads a page's keys over a range.
 */
function daysOf(period: Period, byKey: boolean): SQL {
  if (period.from === period.to) return sql`day = ${period.from}::date`;
  if (!byKey) return sql`day between ${period.from}::date and ${period.to}::date`;
  return sql`day = any(${arrayParam(eachDay(period.from, period.to))}::date[])`;
}

function whereOf(def: ReportDef, q: ReportQuery, period: Period | SQL, totalRow: boolean): SQL {
  const parts = [
    sql`tenant = ${q.tenant}`,
    typeof (period as Period).from === 'string' ? daysOf(period as Period, totalRow) : (period as SQL),
    ...q.scope,
  ];
  const totalKey =
    q.totalKey !== undefined
      ? sql`${q.totalKey}`
      : def.totalKey !== undefined
        ? sql.raw(def.totalKey)
        : undefined;
  if (totalKey) parts.push(sql`${sql.raw(def.key)} ${sql.raw(totalRow ? '=' : '<>')} ${totalKey}`);
  if (!totalRow && q.filter) parts.push(q.filter);
  return sql.join(parts, sql` and `);
}

const filtered = (def: ReportDef, q: ReportQuery) =>
  (def.totalKey === undefined && q.totalKey === undefined) || !!q.filter || !!q.having;

/** Of figures (another report's, `totalsOf`), those `def` gives. */
function ownFigures(def: ReportDef, f: Figures): Figures {
  const out: Figures = {};
  for (const k of def.figures) if (k in f) out[k] = f[k];
  return out;
}

/** The report and query whose total rows give a report's totals and series (`ReportQuery.totalsOf`). */
const totalsSource = (def: ReportDef, q: ReportQuery): [ReportDef, ReportQuery] =>
  q.totalsOf && !q.filter && !q.having
    ? [q.totalsOf.def, { ...q, scope: [], totalsOf: undefined, totalKey: q.totalsOf.key }]
    : [def, q];

/** Whether the sketches of a query come from the blocks table (they do unless rows are restricted by `having`). */
const blocksFor = (def: ReportDef, q: ReportQuery) => !!def.blocks && !q.having;

/**
 * The sketches over a period from the aligned blocks covering it (and the daily rows at its ragged edges), per key when
 * `byKey`; `keys` restricts the keys. Rows as `sketchSql` makes them (`key`, `sk_*`), each `sk_*` the group's sketches
 * as a list (`Union.addFramed`). The rows are read one by one and grouped here (`string_agg` would copy each full
 * sketch twice on the server), a group's full sketches merged as they arrive: a page of busy domains holds two
 * sketches a domain, not megabytes of rows.
 */
async function blockSketches(
  db: Executor,
  def: ReportDef,
  q: ReportQuery,
  period: Period,
  opts: { totalRow: boolean; byKey: boolean; keys?: unknown[] },
): Promise<Raw[]> {
  const cols = sql.raw([def.key, ...Object.values(def.sketches)].join(', '));
  const inKeys = opts.keys
    ? sql` and ${sql.raw(def.key)} in (${sql.join(
        opts.keys.map((k) => sql`${k}`),
        sql`, `,
      )})`
    : sql``;
  const rows = pieceRows(def, q, cover(period.from, period.to), def.blocks!, cols, opts.totalRow, inKeys);
  const names = Object.keys(def.sketches).map((k) => `sk_${k}`);
  const by = opts.byKey ? 'key' : 'one';
  const groups = new Map<string, Raw>();
  await eachRowWithBytes(
    db,
    sql`select ${opts.byKey ? sql`${sql.raw(def.key)} as key` : sql`1 as one`}${storedSketchSql(def)} from (${rows}) x`,
    { [by]: 'text', ...Object.fromEntries(names.map((n) => [n, 'bytea' as const])) },
    (r) => {
      const key = String(r[by]);
      let group = groups.get(key);
      if (!group) {
        group = { [by]: r[by] };
        for (const n of names) group[n] = [];
        groups.set(key, group);
      }
      for (const n of names) {
        const s = r[n] as Uint8Array | null;
        if (!s?.length) continue;
        // A group's full sketches merged into its list's first (a sparse one is never 16,384 bytes long).
        const list = group[n] as Uint8Array[];
        if (s.length !== M) list.push(s.slice());
        else if (list[0]?.length === M) raiseTo(list[0], s);
        else list.unshift(s.slice());
      }
    },
  );
  return [...groups.values()];
}

/**
 * The rows over a period's pieces (`cover`) as one `union all` of `cols`: its ragged days' rows of `def.table` and its
 * blocks' rows of `blocks`, those of the total row or the other keys (`totalRow`), and of `and` (a page's keys).
 */
function pieceRows(
  def: ReportDef,
  q: ReportQuery,
  pieces: { level: number; start: string }[],
  blocks: string,
  cols: SQL,
  totalRow: boolean,
  and: SQL = sql``,
): SQL {
  const days = pieces.filter((p) => p.level === 0).map((p) => sql`${p.start}::date`);
  const spans = pieces.filter((p) => p.level > 0).map((p) => sql`(${p.level}, ${p.start}::date)`);
  const parts: SQL[] = [];
  if (days.length)
    parts.push(
      sql`select ${cols} from ${sql.raw(def.table)} where ${whereOf(def, q, sql`day in (${sql.join(days, sql`, `)})`, totalRow)}${and}`,
    );
  if (spans.length)
    parts.push(
      sql`select ${cols} from ${sql.raw(blocks)} where ${whereOf(def, q, sql`(level, start) in (${sql.join(spans, sql`, `)})`, totalRow)}${and}`,
    );
  return sql.join(parts, sql` union all `);
}

/** Rows read with `storedSketchSql`, each sketch as its group's list (`Union.addFramed`), in place; null stays null. */
function framedSketches(def: ReportDef, rows: Raw[]): Raw[] {
  for (const r of rows)
    for (const k of Object.keys(def.sketches)) r[`sk_${k}`] = r[`sk_${k}`] ? [r[`sk_${k}`]] : null;
  return rows;
}

/** Rows restricted to the keys that pass `having` (the demand-gap view), as a condition. */
function havingKeys(def: ReportDef, q: ReportQuery, period: Period): SQL | undefined {
  if (!q.having) return undefined;
  return sql`${sql.raw(def.key)} in (select ${sql.raw(def.key)} from ${sql.raw(def.table)} where ${whereOf(def, q, period, false)} group by ${sql.raw(def.key)} having ${q.having})`;
}

/** The totals' sums and sketches over a period: the total rows, or every matching row when the report is filtered. */
async function totalRows(
  db: Executor,
  def: ReportDef,
  q: ReportQuery,
  period: Period,
  days?: DayRowsRead,
): Promise<{ row: Raw; sketches: Raw }> {
  if (days) return totalsOfDays(def, await days(period));
  const useTotal = !filtered(def, q);
  const h = havingKeys(def, q, period);
  const where = useTotal ? whereOf(def, q, period, true) : whereOf(def, q, period, false);
  const blocks = blocksFor(def, q);
  const [[row], [sketches]] = await Promise.all([
    readRows(
      db,
      def,
      sql`select ${sumsSql(def)}${blocks ? sql`` : sketchSql(def)} from ${sql.raw(def.table)} where ${where}${h ? sql` and ${h}` : sql``}`,
      Object.keys(def.sums),
      !blocks,
    ),
    blocks ? blockSketches(db, def, q, period, { totalRow: useTotal, byKey: false }) : Promise.resolve([]),
  ]);
  return { row: row ?? {}, sketches: blocks ? (sketches ?? {}) : (row ?? {}) };
}

/** Totals over the period. */
async function totalsOf(db: Executor, def: ReportDef, q: ReportQuery, period: Period, days?: DayRowsRead) {
  const { row, sketches } = await totalRows(db, def, q, period, days);
  return figuresOf(def, row, sketches);
}

/** A period's day rows (`dayRows`), each period read once for one report's computing (`dayRowsOnce`). */
type DayRowsRead = (period: Period) => Promise<Raw[]>;

/**
 * When a report's totals are its series' day rows added up (their sketches merged: no blocks to read them from, no
 * stored estimates in their place), its day rows of each period read once, for both: else a report computed with
 * nothing cached reads each day's sketches twice, grouped by day and then merged.
 */
function dayRowsOnce(db: Executor, def: ReportDef, q: ReportQuery): DayRowsRead | undefined {
  if (blocksFor(def, q) || def.estimates) return undefined;
  const reads = new Map<string, Promise<Raw[]>>();
  return (period) => {
    const key = `${period.from} ${period.to}`;
    let read = reads.get(key);
    if (!read) {
      read = dayRows(db, def, q, period);
      reads.set(key, read);
    }
    return read;
  };
}

/** The totals' row of a period from its day rows: the sums added, each sketch column's framed values joined. */
function totalsOfDays(def: ReportDef, days: Raw[]): { row: Raw; sketches: Raw } {
  const row: Raw = {};
  for (const c of Object.keys(def.sums)) row[c] = days.reduce((sum, d) => sum + num(d[c]), 0);
  for (const c of Object.keys(def.sketches)) {
    const frames = days
      .map((d) => d[`sk_${c}`] as Uint8Array | null)
      .filter((b) => b?.length) as Uint8Array[];
    row[`sk_${c}`] = frames.length ? joinBytes(frames) : null;
  }
  return { row, sketches: row };
}

/**
 * Where a report with no filter splits its period (`splitPeriod`, with `q.today`); null: nothing is cached (a filter
 * that reads other tables than the rollups, or the days of the matching rows only).
 */
const splitOf = (db: Executor, q: ReportQuery) =>
  !q.today || q.cache === false || q.filter || q.having
    ? Promise.resolve(null)
    : splitPeriod(db, { tenant: q.tenant, period: q.period, today: q.today });

/** What is cached of a total or a key over older days: its sums, and the union of its sketches per column. */
interface CachedPart {
  sums: Figures;
  unions: Record<string, MergedSketch>;
}

const union = new Union();

/**
 * A row's sums and sketches (`sk_*`, of `sketches`) as a cached part; with `base`, added to that cached part's (which is
 * left as it is: a late row folded into the older days').
 */
function partOf(def: ReportDef, row: Raw = {}, sketches: Raw = row, base?: CachedPart): CachedPart {
  const sums: Figures = {};
  for (const c of Object.keys(def.sums)) sums[c] = (base?.sums[c] ?? 0) + num(row[c]);
  const unions: Record<string, MergedSketch> = {};
  for (const c of Object.keys(def.sketches))
    unions[c] = union.mergedWithFramed(sketches[`sk_${c}`], base?.unions[c]);
  return { sums, unions };
}

/** The figures of a cached part with a recent row's sums added and its sketches merged (`Union.estimateWith`). */
function withRecent(def: ReportDef, cached: CachedPart, row: Raw = {}, sketches: Raw = row): Figures {
  const sums: Figures = {};
  for (const c of Object.keys(def.sums)) sums[c] = cached.sums[c] + num(row[c]);
  const uniques: Figures = {};
  for (const c of Object.keys(def.sketches))
    uniques[c] = union.estimateFramedWith(sketches[`sk_${c}`], cached.unions[c]);
  return def.derive(sums, uniques);
}

/**
 * Cached parts of reports over a split's days (`splitPeriod`): totals, daily series and a page's keys, each over the
 * older days, those with the late days folded in and the recent days: room for about ten reports.
 */
const parts = periodParts<unknown>(120);
/** What a cached part of `def` reads, but for its days: the part (`t`otals, `s`eries, `r`ows of keys, `k`ey sums). */
const scopeOf = (part: string, def: ReportDef, q: ReportQuery) => [
  part,
  def.table,
  q.tenant,
  q.scope.map(sqlKey),
  q.totalKey ?? null,
];

/**
 * The figures of the keys given (a page's) over a period. With a split, each key's sums and sketch unions over the
 * older days are cached once read (a page's keys are mostly the same read after read), and the recent days' rows added.
 */
async function keyFigures(
  db: Executor,
  def: ReportDef,
  q: ReportQuery,
  period: Period,
  keys: unknown[],
  split: Split | null,
): Promise<Map<string, Figures>> {
  if (!split) {
    const rows = await rowsFor(db, def, q, period, keys);
    return new Map(keys.map((k) => [String(k), figuresOf(def, rows.get(String(k)) ?? {})]));
  }
  // Per key: the older days' part, and (with late days) that part with the late days' rows folded in; and its
  // recent days' rows (today's), cached under today's stamp ({} for none), so that a rollup of yesterday reads only
  // yesterday's rows (a busy domain's are full sketches).
  const scope = scopeOf('r', def, q);
  const cached = <T>(part: 'older' | 'upToLate' | 'recent') => {
    let found = parts.get<Map<string, T>>(db, scope, split, part);
    if (!found) {
      found = new Map();
      parts.set(db, scope, split, part, found);
    }
    return found;
  };
  const older = cached<CachedPart>('older');
  const withLate = split.late ? cached<CachedPart>('upToLate') : older;
  const recent = split.recent ? cached<Raw>('recent') : new Map<string, Raw>();
  const missing = keys.filter((k) => !withLate.has(String(k)));
  const unread = missing.filter((k) => !older.has(String(k)));
  const fresh = split.recent ? keys.filter((k) => !recent.has(String(k))) : [];
  const none = Promise.resolve(new Map<string, Raw>());
  const [olderRows, lateRows, recentRows] = await Promise.all([
    rowsFor(db, def, q, split.older, unread),
    split.late && withLate !== older ? rowsFor(db, def, q, split.late, missing) : none,
    split.recent ? rowsFor(db, def, q, split.recent, fresh) : none,
  ]);
  for (const k of unread) older.set(String(k), partOf(def, olderRows.get(String(k)) ?? {}));
  if (withLate !== older)
    for (const k of missing)
      withLate.set(String(k), partOf(def, lateRows.get(String(k)), undefined, older.get(String(k))!));
  for (const k of fresh) recent.set(String(k), recentRows.get(String(k)) ?? {});
  return new Map(
    keys.map((k) => [String(k), withRecent(def, withLate.get(String(k))!, recent.get(String(k)))]),
  );
}

/**
 * A part of a split read with `read`: over the older days (as `asPart` makes it) with the late days' folded in
 * (`periodParts.upToLate`), and over the recent days as read; each cached under its days' stamps, both read at once.
 */
function splitPart<P, R>(
  db: Executor,
  scope: unknown[],
  split: Split,
  read: (period: Period) => Promise<R>,
  asPart: (older: R) => P,
  fold: (older: P, late: R) => P,
): Promise<[P, R | null]> {
  const recent = split.recent;
  return Promise.all([
    parts.upToLate(db, scope, split, async () => asPart(await read(split.older)), read, fold),
    recent ? parts.orRead(db, scope, split, 'recent', () => read(recent)) : null,
  ]);
}

/** Totals over the period, the older days' sums and sketch unions cached (`splitOf`), the recent days' read. */
async function splitTotals(
  db: Executor,
  def: ReportDef,
  q: ReportQuery,
  split: Split,
  days?: DayRowsRead,
): Promise<Figures> {
  const [cached, recent] = await splitPart(
    db,
    scopeOf('t', def, q),
    split,
    (period) => totalRows(db, def, q, period, days),
    ({ row, sketches }) => partOf(def, row, sketches),
    (older, { row, sketches }) => partOf(def, row, sketches, older),
  );
  return withRecent(def, cached, recent?.row, recent?.sketches);
}

/** The daily series, the older days' figures cached (`splitOf`): a day's figures change only when it is rolled up. */
async function splitSeries(db: Executor, def: ReportDef, q: ReportQuery, split: Split, days?: DayRowsRead) {
  const [cached, recentDays] = await splitPart(
    db,
    scopeOf('s', def, q),
    split,
    (period) => seriesDays(db, def, q, period, days),
    (older) => older,
    (older, late) => new Map([...older, ...late]),
  );
  return eachDay(q.period.from, q.period.to).map((date) => ({
    date,
    ...(cached.get(date) ?? recentDays?.get(date) ?? figuresOf(def, {})),
  }));
}

async function seriesOf(db: Executor, def: ReportDef, q: ReportQuery, days?: DayRowsRead) {
  const byDay = await seriesDays(db, def, q, q.period, days);
  return eachDay(q.period.from, q.period.to).map((date) => ({
    date,
    ...(byDay.get(date) ?? figuresOf(def, {})),
  }));
}

/** Each day's figures over a period (the days with rows). */
async function seriesDays(db: Executor, def: ReportDef, q: ReportQuery, period: Period, days?: DayRowsRead) {
  const rows = await (days ? days(period) : dayRows(db, def, q, period));
  return new Map(rows.map((r) => [String(r.day).slice(0, 10), figuresOf(def, r)]));
}

/** Each day's row over a period (the days with rows): its sums, and its sketches framed or their stored estimates. */
async function dayRows(db: Executor, def: ReportDef, q: ReportQuery, period: Period): Promise<Raw[]> {
  const useTotal = !filtered(def, q);
  const h = havingKeys(def, q, period);
  const where = whereOf(def, q, period, useTotal);
  // One total row a day: its stored estimates stand for its sketches (which are read only where they are missing).
  const est = useTotal && def.estimates ? def.estimates : undefined;
  const figures = est
    ? sql.raw(
        Object.entries(def.sketches)
          .map(
            ([k, c]) =>
              `, min(${est[k]}) as "n_${k}", string_agg(int4send(length(${c})) || ${c}, ''::bytea) filter (where ${est[k]} is null) as "sk_${k}"`,
          )
          .join(''),
      )
    : sketchSql(def);
  return readRows(
    db,
    def,
    sql`select day::text as day, ${sumsSql(def)}${figures} from ${sql.raw(def.table)}
      where ${where}${h ? sql` and ${h}` : sql``} group by day`,
    ['day', ...Object.keys(def.sums), ...(est ? Object.keys(def.sketches).map((k) => `n_${k}`) : [])],
    true,
  );
}

/** Rows of the keys given, over a period (the page's figures, or the previous period's). */
async function rowsFor(db: Executor, def: ReportDef, q: ReportQuery, period: Period, keys: unknown[]) {
  if (!keys.length) return new Map<string, Raw>();
  const blocks = blocksFor(def, q);
  // One day of a table with a row per key and day: the rows as they are (their sketches framed here), not grouped.
  const one = def.rowPerKeyAndDay && period.from === period.to ? rowSql(def) : null;
  const [rows, sketches] = await Promise.all([
    readRows(
      db,
      def,
      sql`select ${sql.raw(def.key)} as key, ${one ?? sumsSql(def)}${blocks ? sql`` : one ? storedSketchSql(def) : sketchSql(def)} from ${sql.raw(def.table)}
        where ${whereOf(def, q, daysOf(period, !def.keyDays), false)} and ${sql.raw(def.key)} in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})${one ? sql`` : sql` group by ${sql.raw(def.key)}`}`,
      ['key', ...Object.keys(def.sums)],
      !blocks,
    ).then((r) => (one && !blocks ? framedSketches(def, r) : r)),
    blocks ? blockSketches(db, def, q, period, { totalRow: false, byKey: true, keys }) : Promise.resolve([]),
  ]);
  return withSketches(rows, sketches);
}

/** Rows keyed by `key`, each with the `sk_*` columns of the matching sketch row. */
function withSketches(rows: Raw[], sketches: Raw[]) {
  const byKey = new Map(sketches.map((r) => [String(r.key), r]));
  return new Map(rows.map((r) => [String(r.key), { ...byKey.get(String(r.key)), ...r }]));
}

/**
 * A report: one page of rows (with the previous period's figures when comparing), totals and the daily series; an
 * answer cached from an earlier identical read while no day it covers was rolled up again (report-cache.ts), unless
 * `q.cache` is false (a filter reading other tables than the rollups).
 */
export async function runReport(db: Executor, def: ReportDef, q: ReportQuery) {
  if (q.cache === false) return computeReport(db, def, q);
  const span = q.compare ? { from: previousPeriod(q.period).from, to: q.period.to } : q.period;
  const key = JSON.stringify([
    def.table,
    q.tenant,
    q.period,
    q.compare,
    q.sort,
    q.order,
    q.page,
    q.pageSize,
    q.scope.map(sqlKey),
    sqlKey(q.filter),
    sqlKey(q.having),
  ]);
  return cachedAnswer(db, { tenant: q.tenant, span }, key, () => computeReport(db, def, q));
}

/**
 * Every key's sums over a period, in columns: `keys[i]`'s sum of `def.sums`' n-th column is `cols[n][i]`; `slot`, made
 * when first asked, finds a key's `i` by its text.
 */
export class KeySums {
  private index?: Map<string, number>;
  constructor(
    readonly keys: unknown[],
    readonly cols: Float64Array[],
  ) {}
  get size() {
    return this.keys.length;
  }
  slot(key: string): number | undefined {
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < this.keys.length; i++) this.index.set(String(this.keys[i]), i);
    }
    return this.index.get(key);
  }
}

/** Cached sums per key of reports' older, late and recent days (`keySums`): each part of eight reports. */
const keySumParts = periodParts<KeySums>(3 * 8);

/**
 * Whether a period's blocks read at least four times fewer rows a key than its days. A few days' rows read as fast as
 * fewer pieces do: the `union all` of blocks and days is planned in parallel, which costs more than the rows it saves.
 */
const fewerPieces = (pieces: { level: number }[], period: Period) =>
  pieces.some((p) => p.level > 0) && 4 * pieces.length <= daysIn(period.from, period.to);

/**
 * Every key's sums over a period. One day's rows of a report whose keys have one row a day are its keys' sums, read
 * without grouping; a longer period of a report with blocks of sums (`sumBlocks`) adds its blocks and its edges' days.
 * They come as one row of JSON arrays, one a column: taking in a row a key (thousands of keywords a day) costs this
 * thread several times more.
 */
async function sumsByKey(db: Executor, def: ReportDef, q: ReportQuery, period: Period): Promise<KeySums> {
  const key = sql.raw(def.key);
  const where = whereOf(def, q, period, false);
  const names = Object.keys(def.sums);
  const perRow = period.from === period.to && def.rowPerKeyAndDay ? rowSql(def) : null;
  const pieces = def.sumBlocks ? cover(period.from, period.to) : [];
  const rows = perRow
    ? sql`select ${key} as key, ${perRow} from ${sql.raw(def.table)} where ${where}`
    : fewerPieces(pieces, period)
      ? sql`select ${key} as key, ${sumsSql(def)} from (${pieceRows(def, q, pieces, def.sumBlocks!, sql.raw([def.key, ...summed(def)!].join(', ')), false)}) x group by ${key}`
      : sql`select ${key} as key, ${sumsSql(def)} from ${sql.raw(def.table)} where ${where} group by ${key}`;
  const arrays = ['key', ...names].map((c, i) => `to_json(array_agg("${c}"))::text as c${i}`).join(', ');
  const [row] = rowsOf<Record<string, string | null>>(
    await db.execute(sql`select ${sql.raw(arrays)} from (${rows}) x`),
  );
  const array = (i: number): unknown[] => (row?.[`c${i}`] ? JSON.parse(row[`c${i}`] as string) : []);
  return new KeySums(
    array(0),
    names.map((_, i) => Float64Array.from(array(i + 1), num)),
  );
}

/**
 * Every key's sums over the period of a report with no filter, as the older days' (cached with a split, `splitOf`: read
 * once under its stamp), the late days' and the recent days' (each cached under its own stamp: after a rollup of today
 * the keywords of 90 days are one day of rows, not ninety, and the next page before the next rollup none). The same
 * sums as one read of every day (integers, added exactly).
 */
async function keySums(
  db: Executor,
  def: ReportDef,
  q: ReportQuery,
  split: Split | null,
): Promise<KeySums[]> {
  if (!split) return [await sumsByKey(db, def, q, q.period)];
  // The older days' sums cached, and the late and recent days' cached apart: folded into the older days', a rollup of
  // yesterday or today would copy every key of the period (a long tail of keywords over 90 days). The page adds the
  // three.
  const none = new KeySums([], []);
  const scope = scopeOf('k', def, q);
  const { late, recent } = split;
  const read = (part: 'older' | 'upToLate' | 'recent', period: Period | null) =>
    period ? keySumParts.orRead(db, scope, split, part, () => sumsByKey(db, def, q, period)) : none;
  // The late days' sums are kept under the older days' stamp too, as the late part of the totals and keys' rows.
  return Promise.all([read('older', split.older), read('upToLate', late), read('recent', recent)]);
}

/**
 * Orders rows by a value (`null`: by key) in `order`: nulls last, ties by key ascending; by key, ascending or
 * descending.
 */
function compareBy<T>(
  value: ((r: T) => number | null) | null,
  order: 'asc' | 'desc',
  keyOf: (r: T) => unknown,
) {
  const sign = order === 'desc' ? -1 : 1;
  const byKey = (a: T, b: T) => {
    const x = keyOf(a) as string | number;
    const y = keyOf(b) as string | number;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  if (!value) return (a: T, b: T) => sign * byKey(a, b);
  return (a: T, b: T) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? byKey(a, b) : x === null ? 1 : -1;
    return sign * (x - y) || byKey(a, b);
  };
}

/**
 * One page of every key's sums (each key's sums in `parts` added, the parts left as they are), in the report's order
 * (`compareBy`'s: the figure of `def.sortValue`, nulls last, ties by key; or by key), and how many keys there are.
 * The parts are added in columns: the first part's copied, a key of the others found in it by its text (or added
 * after its keys); then each key's sort value is worked out once, and the first offset + page size found with a heap,
 * so a page costs about n·log(k) comparisons of numbers however many keys there are, not a sort of them all.
 */
export function pageOfSums(
  def: ReportDef,
  q: ReportQuery,
  parts: KeySums[],
  offset: number,
): { page: Raw[]; total: number } {
  const names = Object.keys(def.sums);
  const [first, ...more] = parts;
  const room = parts.reduce((n, p) => n + p.size, 0);
  const cols = names.map((_, c) => {
    const col = new Float64Array(room);
    if (first.size) col.set(first.cols[c]);
    return col;
  });
  const keys = first.keys.slice();
  const added = new Map<string, number>(); // keys not in the first part: their slots
  for (const part of more)
    for (let i = 0; i < part.size; i++) {
      const text = String(part.keys[i]);
      let slot = first.slot(text) ?? added.get(text);
      if (slot === undefined) {
        slot = keys.length;
        keys.push(part.keys[i]);
        added.set(text, slot);
      }
      for (let c = 0; c < names.length; c++) cols[c][slot] += part.cols[c][i];
    }
  const total = keys.length;
  // Each key's sort value (NaN: null), from a scratch row of its sums.
  const byValue = q.sort !== 'key';
  const values = new Float64Array(byValue ? total : 0);
  if (byValue) {
    const value = def.sortValue[q.sort];
    const sums: Figures = {};
    for (let i = 0; i < total; i++) {
      for (let c = 0; c < names.length; c++) sums[names[c]] = cols[c][i];
      values[i] = value(sums) ?? Number.NaN;
    }
  }
  const cmp = compareBy<number>(
    byValue ? (i) => (Number.isNaN(values[i]) ? null : values[i]) : null,
    q.order,
    (i) => keys[i],
  );
  const k = Math.min(offset + q.pageSize, total);
  // A max-heap (by `cmp`) of the k first keys so far: its root is the last of them.
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cmp(heap[i], heap[p]) <= 0) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l], heap[m]) > 0) m = l;
      if (r < heap.length && cmp(heap[r], heap[m]) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  if (k > 0)
    for (let i = 0; i < total; i++) {
      if (heap.length < k) {
        heap.push(i);
        up(heap.length - 1);
      } else if (cmp(i, heap[0]) < 0) {
        heap[0] = i;
        down(0);
      }
    }
  const page = heap
    .sort(cmp)
    .slice(offset)
    .map((i) => {
      const row: Raw = { key: keys[i] };
      for (let c = 0; c < names.length; c++) row[names[c]] = cols[c][i];
      return row;
    });
  return { page, total };
}

async function computeReport(db: Executor, def: ReportDef, q: ReportQuery) {
  const split = await splitOf(db, q);
  // The totals and the series do not depend on the page: read beside it (other connections on PostgreSQL), and so
  // is the compared period's stamp.
  const [tdef, tq] = totalsSource(def, q);
  // Another report's totals and series (`totalsOf`) carry that report's figures: this one's are kept.
  const own = (f: Figures) => (tdef === def ? f : ownFigures(def, f));
  const days = dayRowsOnce(db, tdef, tq);
  const totalsAndSeries = Promise.all(
    split
      ? [splitTotals(db, tdef, tq, split, days), splitSeries(db, tdef, tq, split, days)]
      : [totalsOf(db, tdef, tq, q.period, days), seriesOf(db, tdef, tq, days)],
  );
  const prev = previousPeriod(q.period);
  const prevSplit = split && q.compare ? wholeSplit(db, q.tenant, prev) : null;
  // The previous period's totals and figures of the page's keys do not wait for this period's: read beside them.
  const prevTotals = q.compare
    ? prevSplit
      ? prevSplit.then((p) => splitTotals(db, tdef, tq, p))
      : totalsOf(db, tdef, tq, prev)
    : null;
  // With a split, the previous period is all older days: cached whole under its own stamp.
  const previousOf = async (keys: unknown[]) => keyFigures(db, def, q, prev, keys, (await prevSplit) ?? null);
  let before: Promise<Map<string, Figures>> | null = null;
  // Awaited below; not an unhandled rejection if the page's reads fail first.
  totalsAndSeries.catch(() => {});
  prevTotals?.catch(() => {});
  const key = sql.raw(def.key);
  const where = whereOf(def, q, q.period, false);
  const having = q.having ? sql` having ${q.having}` : sql``;
  const dir = q.order === 'desc' ? 'desc' : 'asc';
  const offset = (q.page - 1) * q.pageSize;
  let list: Record<string, any>[];
  let total: number;
  const sortSql = q.sort === 'key' ? def.key : def.sqlSort[q.sort];
  if (sortSql && !q.filter && !q.having) {
    // No filter: every key's sums (the older days' cached, `keySums`), sorted here; the page's keys read in full.
    const sums = pageOfSums(def, q, await keySums(db, def, q, split), offset);
    total = sums.total;
    const page = sums.page;
    if (q.compare) {
      before = previousOf(page.map((r) => r.key));
      before.catch(() => {});
    }
    const figures = await keyFigures(
      db,
      def,
      q,
      q.period,
      page.map((r) => r.key),
      split,
    );
    list = page.map((r) => ({ key: String(r.key), ...figures.get(String(r.key)) }));
  } else if (sortSql) {
    // Sorted in SQL: only the page's keys have their sketches read.
    const rows = rowsOf<Raw>(
      await db.execute(sql`select ${key} as key, count(*) over () as total from ${sql.raw(def.table)} where ${where}
        group by ${key}${having} order by ${sql.raw(sortSql)} ${sql.raw(dir)} nulls last, ${key} asc
        limit ${q.pageSize} offset ${offset}`),
    );
    total = rows.length ? num(rows[0].total) : await countKeys(db, def, where, having);
    const full = await rowsFor(
      db,
      def,
      q,
      q.period,
      rows.map((r) => r.key),
    );
    list = rows.map((r) => ({ key: String(r.key), ...figuresOf(def, full.get(String(r.key)) ?? {}) }));
  } else {
    // Sorted by an estimated figure: every key's sketch is merged, then sorted here.
    const blocks = blocksFor(def, q);
    const [sums, sketches] = await Promise.all([
      readRows(
        db,
        def,
        sql`select ${key} as key, ${sumsSql(def)}${blocks ? sql`` : sketchSql(def)} from ${sql.raw(def.table)}
          where ${where} group by ${key}${having}`,
        ['key', ...Object.keys(def.sums)],
        !blocks,
      ),
      blocks ? blockSketches(db, def, q, q.period, { totalRow: false, byKey: true }) : Promise.resolve([]),
    ]);
    const rows = [...withSketches(sums, sketches).values()];
    const all: Record<string, any>[] = rows.map((r) => ({ key: String(r.key), ...figuresOf(def, r) }));
    const sign = dir === 'desc' ? -1 : 1;
    all.sort(
      (a, b) => sign * ((a[q.sort] ?? 0) - (b[q.sort] ?? 0)) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    total = all.length;
    list = all.slice(offset, offset + q.pageSize);
  }
  const [totals, series] = await totalsAndSeries;
  const out: ReportAnswer<Record<string, unknown>> = {
    list,
    total,
    totals: own(totals),
    series: tdef === def ? series : series.map(({ date, ...r }) => ({ date, ...own(r as Figures) })),
  };
  if (q.compare) {
    const [previous, previousTotals] = await Promise.all([
      before ?? previousOf(list.map((r) => (def.totalKey === '0' ? Number(r.key) : r.key))),
      prevTotals!,
    ]);
    out.list = list.map((r) => ({ ...r, previous: previous.get(r.key) ?? figuresOf(def, {}) }));
    out.previousTotals = own(previousTotals);
  }
  return out;
}

async function countKeys(db: Executor, def: ReportDef, where: SQL, having: SQL) {
  const [row] = rowsOf<Raw>(
    await db.execute(
      sql`select count(*) as n from (select 1 from ${sql.raw(def.table)} where ${where} group by ${sql.raw(def.key)}${having}) x`,
    ),
  );
  return num(row?.n);
}

export const REPORTS = {
  keywords: {
    table: 'stat_keyword_daily',
    sumBlocks: 'stat_keyword_blocks',
    rowPerKeyAndDay: true,
    keyDays: true,
    key: 'keyword',
    totalKey: "''",
    sums: { searches: 'sum(searches)', zero: 'sum(zero_results)', rsum: 'sum(results_sum)' },
    sketches: { searchers: 'searchers' },
    figures: ['searches', 'searchers', 'avgResults', 'zeroResults'],
    derive: (s, u) => ({
      searches: s.searches,
      searchers: u.searchers,
      avgResults: ratio(s.rsum, s.searches, 2),
      zeroResults: s.zero,
    }),
    sqlSort: {
      searches: 'sum(searches)',
      zeroResults: 'sum(zero_results)',
      avgResults: 'sum(results_sum)::float8 / nullif(sum(searches), 0)',
    },
    sortValue: {
      searches: (s) => s.searches,
      zeroResults: (s) => s.zero,
      avgResults: (s) => (s.searches ? s.rsum / s.searches : null),
    },
  },
  objects: {
    table: 'stat_object_daily',
    rowPerKeyAndDay: true,
    keyDays: true,
    key: 'object_id',
    totalKey: '0',
    sums: { views: 'sum(views)', plays: 'sum(plays)' },
    sketches: { viewers: 'viewers' },
    figures: ['views', 'plays', 'viewers', 'playRate'],
    derive: (s, u) => ({
      views: s.views,
      plays: s.plays,
      viewers: u.viewers,
      playRate: ratio(s.plays, s.views),
    }),
    sqlSort: {
      views: 'sum(views)',
      plays: 'sum(plays)',
      playRate: 'sum(plays)::float8 / nullif(sum(views), 0)',
    },
    sortValue: {
      views: (s) => s.views,
      plays: (s) => s.plays,
      playRate: (s) => (s.views ? s.plays / s.views : null),
    },
  },
  domains: {
    table: 'stat_domain_daily',
    rowPerKeyAndDay: true,
    key: 'domain',
    totalKey: "''",
    sums: {
      pageViews: 'sum(page_views)',
      visits: 'sum(visits)',
      bounced: 'sum(bounced)',
      fresh: 'sum(new_visitors)',
    },
    sketches: { visitors: 'visitors', addresses: 'addresses' },
    blocks: 'stat_domain_blocks',
    estimates: { visitors: 'visitors_n', addresses: 'addresses_n' },
    figures: ['pageViews', 'visitors', 'addresses', 'newVisitors', 'bounceRate'],
    derive: (s, u) => ({
      pageViews: s.pageViews,
      visitors: u.visitors,
      addresses: u.addresses,
      newVisitors: s.fresh,
      bounceRate: ratio(s.bounced, s.visits),
    }),
    sqlSort: {
      pageViews: 'sum(page_views)',
      newVisitors: 'sum(new_visitors)',
      bounceRate: 'sum(bounced)::float8 / nullif(sum(visits), 0)',
    },
    sortValue: {
      pageViews: (s) => s.pageViews,
      newVisitors: (s) => s.fresh,
      bounceRate: (s) => (s.visits ? s.bounced / s.visits : null),
    },
  },
  visits: {
    table: 'stat_visit_daily',
    rowPerKeyAndDay: true,
    key: 'key',
    sums: { pageViews: 'sum(page_views)' },
    sketches: { visitors: 'visitors' },
    figures: ['pageViews', 'visitors', 'share'],
    derive: (s, u) => ({ pageViews: s.pageViews, visitors: u.visitors }),
    sqlSort: { pageViews: 'sum(page_views)', share: 'sum(page_views)' },
    sortValue: { pageViews: (s) => s.pageViews, share: (s) => s.pageViews },
  },
} satisfies Record<string, ReportDef>;

/**
 * The hour rows of one domain over a period (each day's 24 hours), the figures of the domains report per hour, in
 * hour order or by a figure (`sort`, `order`: nulls last, then hour order; the series stays in hour order).
 */
export async function domainHours(
  db: Executor,
  q: {
    tenant: number;
    period: Period;
    domain: string;
    compare: boolean;
    sort?: string;
    order?: 'asc' | 'desc';
  },
) {
  const def = REPORTS.domains;
  const hours = async (period: Period) => {
    const rows = rowsOf<Raw>(
      await db.execute(sql`select day::text as day, hour, ${sumsSql(def)}${sketchSql(def)} from stat_domain_hourly
        where tenant = ${q.tenant} and domain = ${q.domain} and day between ${period.from}::date and ${period.to}::date
        group by day, hour`),
    );
    const byKey = new Map(
      rows.map((r) => [`${String(r.day).slice(0, 10)} ${String(r.hour).padStart(2, '0')}:00`, r]),
    );
    return eachDay(period.from, period.to).flatMap((d) =>
      Array.from({ length: 24 }, (_, h) => {
        const key = `${d} ${String(h).padStart(2, '0')}:00`;
        return { key, ...figuresOf(def, byKey.get(key) ?? {}) };
      }),
    );
  };
  const current = await hours(q.period);
  const domainQuery: ReportQuery = {
    tenant: q.tenant,
    period: q.period,
    scope: [sql`domain = ${q.domain}`],
    sort: 'pageViews',
    order: 'desc',
    page: 1,
    pageSize: 1,
    compare: false,
  };
  const totals = await totalsOfDomain(db, domainQuery, q.period);
  const out: ReportAnswer = {
    list: current,
    total: current.length,
    totals,
    series: current.map(({ key, ...f }) => ({ date: key, ...f })),
  };
  if (q.compare) {
    const prev = previousPeriod(q.period);
    const shift = daysIn(q.period.from, q.period.to);
    const before = new Map((await hours(prev)).map((r) => [r.key, r]));
    out.list = current.map((r) => {
      const [d, h] = r.key.split(' ');
      const { key: _k, ...previous } = before.get(`${addDays(d, -shift)} ${h}`)!;
      return { ...r, previous };
    });
    out.previousTotals = await totalsOfDomain(db, domainQuery, prev);
  }
  const sort = q.sort ?? 'key';
  const figure = (r: Raw) => (typeof r[sort] === 'number' ? (r[sort] as number) : null);
  out.list = [...out.list].sort(compareBy(sort === 'key' ? null : figure, q.order ?? 'asc', (r) => r.key));
  return out;
}

function totalsOfDomain(db: Executor, q: ReportQuery, period: Period) {
  return totalsOf(db, REPORTS.domains, { ...q, filter: sql`true` }, period);
}

/** A domain's page views over a period (the base of a visits report's shares). */
export async function domainPageViews(db: Executor, tenant: number, domain: string, period: Period) {
  const [row] = rowsOf<Raw>(
    await db.execute(sql`select coalesce(sum(page_views), 0) as n from stat_domain_daily
      where tenant = ${tenant} and domain = ${domain} and day between ${period.from}::date and ${period.to}::date`),
  );
  return num(row?.n);
}

/** The first day with rolled-up data, or null. */
export async function earliestDay(db: Executor, tenant: number): Promise<string | null> {
  const [row] = rowsOf<Raw>(
    await db.execute(sql`select min(day)::text as d from stat_domain_daily where tenant = ${tenant}`),
  );
  return row?.d ? String(row.d).slice(0, 10) : null;
}
