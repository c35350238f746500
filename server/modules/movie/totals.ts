import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { MOVIE_COUNTED_FILTERS } from '../../../common/movie';
import { learnTermCounts } from '../../core/term-counts';
import { cappedCount, counterSum, type ListTotal, PAGING_PARAMS, shortPageTotal } from '../../core/totals';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import {
  type MOVIE_COUNT_DIMS,
  type MovieStatus,
  movieCounts,
  movieCountWeeks,
  movieGramCounts,
  movieSearchCounts,
  movieSearchTerms,
  movieSearchWeeks,
  movies,
} from './schema';

/**
 * Totals of the movie list at a million rows (docs/sections.md "Totals at scale"). A `count(*)` over a large filter is nearly
 * the whole cost of a list (BENCHMARKS.md), so:
 * - a list filtered by view or status and at most one of column, tag, platform, free and recommended reads its exact
 *   total from the counters the triggers keep (`movie_counts`): a few rows, whatever the size;
 * - so does a title search of one or two characters in a view or status, alone or within a column
 *   (`movie_gram_counts`: such a search is one gram of the titles), and one of three or
 *   more characters whose count is kept (`movie_search_counts`: learned when first searched, when
 *   counting its matches would cost; termTotal);
 * - any other filter counts at most COUNT_CAP + 1 matching rows (server/core/totals.ts): under the cap the total is
 *   exact, over it the answer is `total: COUNT_CAP, totalExact: false` ("10,000+" on the screen);
 * - a page shorter than the page size (not past the end) gives its total without any count.
 */
export { COUNT_CAP, type ListTotal } from '../../core/totals';

/**
 * The list parameters a counter can answer for (common/movie.ts MOVIE_COUNTED_FILTERS, and the paging ones); any
 * other parameter with a value is a filter no counter knows.
 */
const COUNTED = new Set<string>([...MOVIE_COUNTED_FILTERS, ...PAGING_PARAMS]);

export interface TotalQuery {
  statuses: readonly MovieStatus[];
  query: Record<string, unknown>;
}

export type Counter = { dim: (typeof MOVIE_COUNT_DIMS)[number]; key: number };

/** The counter holding the exact total of a list, when its filters map onto one. */
export function counterOf(query: Record<string, unknown>): Counter | undefined {
  const set = (k: string) => query[k] !== undefined && query[k] !== '';
  if (Object.keys(query).some((k) => set(k) && !COUNTED.has(k))) return undefined;
  const dims: Counter[] = [];
  if (set('columnId')) dims.push({ dim: 'column', key: Number(query.columnId) });
  if (set('tagId')) dims.push({ dim: 'tag', key: Number(query.tagId) });
  if (set('platform')) dims.push({ dim: 'platform', key: Number(query.platform) });
  // true or false, parsed ("true" and "false" as sent)
  const flag = (k: string) => (query[k] === true || query[k] === 'true' ? 1 : 0);
  if (set('free')) dims.push({ dim: 'free', key: flag('free') });
  if (set('recommended')) dims.push({ dim: 'recommended', key: flag('recommended') });
  if (dims.length > 1) return undefined;
  return dims[0] ?? { dim: 'all', key: 0 };
}

/** The total of a list; given the page read (at `offset`, `pageSize` wide, `pageRows` rows), a short one answers. */
export async function listTotal(
  db: Db,
  { statuses, query }: TotalQuery,
  where: SQL | undefined,
  page?: { offset: number; pageSize: number; pageRows: number },
): Promise<ListTotal> {
  const short = page && shortPageTotal({ offset: page.offset, pageSize: page.pageSize, rows: page.pageRows });
  if (short) return short;
  const counter = counterOf(query);
  if (counter) return { total: await counted(db, counter, statuses), totalExact: true };
  if (gramCounted(query))
    return {
      total: await gramCount(db, String(query.q), statuses, counterOf({ ...query, q: undefined })),
      totalExact: true,
    };
  if (termCounted(query)) {
    const kept = await termTotal(db, String(query.q), statuses, counterOf({ ...query, q: undefined }));
    if (kept !== undefined) return { total: kept, totalExact: true };
  }
  return cappedCount(db, movies, where);
}

/** Whether a list is a title search in a view or status and nothing else (the counters know the rest of it). */
export function searchAlone(query: Record<string, unknown>) {
  const { q, ...rest } = query;
  return typeof q === 'string' && q !== '' && counterOf(rest)?.dim === 'all';
}

/**
 * Whether a list's total is a kept gram count: a title search of one or two characters (zg_query_grams makes it one
 * gram, and model.ts titleContains matches it on the gram alone) in a view or status, and at most a column.
 */
export function gramCounted(query: Record<string, unknown>) {
  const q = searchInView(query);
  return q !== undefined && [...q].length <= 2;
}

/** The title search of a list in a view or status and at most a column (what the kept gram and term counts split). */
function searchInView(query: Record<string, unknown>) {
  const { q, ...rest } = query;
  const dim = counterOf(rest)?.dim;
  return typeof q === 'string' && q !== '' && (dim === 'all' || dim === 'column') ? q : undefined;
}

/**
 * The movies of `statuses` whose title holds the one gram of `q` (one or two characters), within a column when the
 * counter of the list's other filters is one (gramCounted); summed over every column otherwise.
 */
async function gramCount(db: Executor, q: string, statuses: readonly MovieStatus[], counter?: Counter) {
  return counterSum(
    db,
    movieGramCounts,
    movieGramCounts.n,
    and(
      eq(movieGramCounts.gram, sql`(zg_query_grams(${q}::text))[1]`),
      inArray(movieGramCounts.status, [...statuses]),
      counter?.dim === 'column' ? eq(movieGramCounts.columnId, counter.key) : undefined,
    ),
  );
}

/**
 * Whether a list's total may be a kept term count (termTotal): a title search of three or more characters in a view
 * or status, and at most a column.
 */
export function termCounted(query: Record<string, unknown>) {
  const q = searchInView(query);
  return q !== undefined && [...q].length >= 3;
}

/**
 * A search term is learned (its counts kept) when the kept counts of its grams allow at least this
 * many matches: counting them through the table (a page each) would cost more than a few milliseconds.
 */
export const LEARN_FROM = 2_000;
/** …and at most this many: learning counts every match once (a table page each). */
export const LEARN_UP_TO = 200_000;
/** Whether a term whose grams allow at most `bound` matches is worth learning (LEARN_FROM, LEARN_UP_TO). */
export const learnPays = (bound: number) => bound >= LEARN_FROM && bound <= LEARN_UP_TO;

/** The search terms kept at most; a new one sends the least recently searched away. */
export const TERMS_KEPT = 500;

/**
 * The movies of `statuses` (within a column when `counter` is one) whose title contains `q` (three or more
 * characters), when its count is kept: read from `movie_search_counts`, or learned now when the grams' counts allow
 * LEARN_FROM to LEARN_UP_TO matches (learnTerm, which gives up after LEARN_WAIT_MS of writes in flight). Undefined
 * otherwise: the caller counts. Reading a term marks it searched today (once a day, for TERMS_KEPT's eviction).
 */
export async function termTotal(
  db: Db,
  q: string,
  statuses: readonly MovieStatus[],
  counter?: Counter,
): Promise<number | undefined> {
  const term = await termCounts(db, q, statuses, counter);
  return term.known ? term.n : undefined;
}

/** readTerm, after learning the term when it has no counters yet and learnPays. */
async function termCounts(db: Db, q: string, statuses: readonly MovieStatus[], counter?: Counter) {
  const first = await readTerm(db, q, statuses, counter);
  if (first.known || !learnPays(first.bound)) return first;
  return (await learnTerm(db, q)) ? readTerm(db, q, statuses, counter) : first;
}

/** How long a learner waits for the writes in flight when it registered its term (then it leaves it for later). */
export const LEARN_WAIT_MS = 2_000;

/**
 * The registration of a kept title search (server/core/term-counts.ts `register`) in `terms` (a table of term, head
 * and used_on: movie_search_terms, movie_search_listed), with its first two characters as its head: the least recently
 * searched beyond `maxTerms` leave, their rows in `termRows` with them.
 */
export function registerTerm(terms: PgTable, termRows: readonly PgTable[], term: SQL, maxTerms: number): SQL {
  const gone = termRows.map(
    (rows, i) =>
      sql`, gone_${sql.raw(String(i))} as (delete from ${rows} k using gone where k.term = gone.term)`,
  );
  return sql`with gone as (
      delete from ${terms} where term in (
        select term from ${terms} where term <> ${term} order by used_on desc, term offset ${maxTerms - 1}
      ) returning term
    )${sql.join(gone, sql``)}
    insert into ${terms} (term, head) values (${term}, substr(${term}, 1, 2)) on conflict do nothing`;
}

/**
 * Learns a search's counts and weeks (server/core/term-counts.ts): registers the term (sending the least recently
 * searched beyond `kept` away), waits for the writes in flight, then counts its matches against the kept counts and
 * weeks in one snapshot and marks it ready. Answers whether it is ready.
 */
export async function learnTerm(db: Db, q: string, limits = { kept: TERMS_KEPT, waitMs: LEARN_WAIT_MS }) {
  const term = sql`lower(${q}::text)`;
  const week = (at: SQL) => sql`date_trunc('week', ${at} at time zone 'UTC')::date`;
  return learnTermCounts(db, {
    table: 'movies',
    waitMs: limits.waitMs,
    register: registerTerm(movieSearchTerms, [movieSearchCounts, movieSearchWeeks], term, limits.kept),
    adjust: sql`with m as materialized (
        select status, coalesce(column_id, 0) as column_id, created_at, published_at from movies
        where title_grams @> zg_query_grams(${term}) and strpos(lower(title), ${term}) > 0
      ),
      counted as (select status, column_id, count(*)::int as n from m group by 1, 2),
      kept as (select status, column_id, n from movie_search_counts where term = ${term}),
      added as (
        insert into movie_search_counts as c (term, status, column_id, n)
        select ${term}, coalesce(counted.status, kept.status), coalesce(counted.column_id, kept.column_id),
          coalesce(counted.n, 0) - coalesce(kept.n, 0)
        from counted full join kept on kept.status = counted.status and kept.column_id = counted.column_id
        where coalesce(counted.n, 0) <> coalesce(kept.n, 0) order by 2, 3
        on conflict (term, status, column_id) do update set n = c.n + excluded.n
      ),
      weeks as (
        select 'created' as sort, status, ${week(sql`created_at`)} as week, count(*)::int as n from m group by 1, 2, 3
        union all select 'published', status, ${week(sql`published_at`)}, count(*)::int from m
        where published_at is not null group by 1, 2, 3
      ),
      kept_weeks as (select sort, status, week, n from movie_search_weeks where term = ${term}),
      added_weeks as (
        insert into movie_search_weeks as w (term, sort, status, week, n)
        select ${term}, coalesce(c.sort, k.sort), coalesce(c.status, k.status), coalesce(c.week, k.week),
          coalesce(c.n, 0) - coalesce(k.n, 0)
        from weeks c full join kept_weeks k on k.sort = c.sort and k.status = c.status and k.week = c.week
        where coalesce(c.n, 0) <> coalesce(k.n, 0) order by 2, 3, 4
        on conflict (term, sort, status, week) do update set n = w.n + excluded.n
      )
      update movie_search_terms set ready = true where term = ${term} returning ready`,
  });
}

/**
 * The fewest movies any of the grams of `q` is kept for (movie_gram_counts), 0 when one is in no title: at most that
 * many titles contain `q`.
 */
export function gramsBound(q: string): SQL {
  const grams = sql`zg_query_grams(${q}::text)`;
  return sql`(select case when count(*) = cardinality(${grams}) then coalesce(min(s), 0) else 0 end
    from (select sum(n) as s from ${movieGramCounts} where gram = any(${grams}) group by gram) as g)`;
}

/**
 * A term's kept count over `statuses` (and a column), whether it is kept, and, when not, the fewest movies any of
 * its grams is kept for (0 when one is in no title): at most that many match.
 */
async function readTerm(db: Executor, q: string, statuses: readonly MovieStatus[], counter?: Counter) {
  const term = sql`lower(${q}::text)`;
  const inColumn =
    counter?.dim === 'column' ? sql` and ${movieSearchCounts.columnId} = ${counter.key}` : sql``;
  const [row] = rowsOf<{ known: boolean; n: number; bound: number }>(
    await db.execute(sql`with touched as (
        update ${movieSearchTerms} set used_on = current_date where term = ${term} and used_on < current_date
        returning 1
      )
      select k.known, k.n, case when k.known then 0 else ${gramsBound(q)} end::int as bound
      from (select exists (select 1 from ${movieSearchTerms} where term = ${term} and ready) as known,
        (select coalesce(sum(n), 0)::int from ${movieSearchCounts}
          where term = ${term} and ${inArray(movieSearchCounts.status, [...statuses])}${inColumn}) as n) as k`),
  );
  return { known: !!row.known, n: Number(row.n), bound: Number(row.bound) };
}

/**
 * Where page `offset` of a kept term's matches over `statuses`, in `sort` order, starts
 * (movie_search_weeks): the week (a date, UTC Monday) that holds its first row, and how many matches come before that
 * week. `total` is the matches over `statuses` (its kept count): those without the date (unpublished) are the rest,
 * last when descending, first when ascending. Undefined when no whole week comes before the page, when the page
 * reaches the undated, and when the term is not kept (no weeks). A search of one or two characters, whose total is
 * its gram's count (no term needed), is learned here, for its weeks, as a longer one is for its count.
 */
export async function termPageStart(
  db: Db,
  q: string,
  statuses: readonly MovieStatus[],
  sort: 'created' | 'published',
  descending: boolean,
  page: { offset: number; pageSize: number },
  total: number,
): Promise<{ week: string; before: number } | undefined> {
  const read = async () =>
    rowsOf<{ week: string; n: number }>(
      await db.execute(sql`with touched as (
          update ${movieSearchTerms} set used_on = current_date
          where term = lower(${q}::text) and used_on < current_date returning 1
        )
        select ${movieSearchWeeks.week}::text as week, sum(${movieSearchWeeks.n})::int as n from ${movieSearchWeeks}
        where ${movieSearchWeeks.term} = lower(${q}::text) and ${movieSearchWeeks.sort} = ${sort}
          and ${inArray(movieSearchWeeks.status, [...statuses])}
        group by 1 having sum(${movieSearchWeeks.n}) > 0 order by 1 ${descending ? sql`desc` : sql`asc`}`),
    );
  let weeks = await read();
  if (!weeks.length && [...q].length <= 2 && (await termCounts(db, q, statuses)).known) weeks = await read();
  return weekStart(weeks, total, descending, page);
}

/**
 * Where page `offset` starts among rows counted by week (`weeks`, in the list's order; `total` rows in all, those
 * without the date last when descending, first when ascending): the week that holds its first row and the rows
 * before that week. Undefined when no whole week comes before the page, or when the page reaches the undated (a
 * walk from a week skips them).
 */
export function weekStart(
  weeks: readonly { week: string; n: number }[],
  total: number,
  descending: boolean,
  { offset, pageSize }: { offset: number; pageSize: number },
): { week: string; before: number } | undefined {
  const dated = weeks.reduce((sum, w) => sum + Number(w.n), 0);
  if (descending && offset + pageSize > dated) return undefined;
  let before = descending ? 0 : total - dated;
  if (offset < before) return undefined;
  for (const w of weeks) {
    const n = Number(w.n);
    if (offset < before + n) return before > 0 ? { week: w.week, before } : undefined;
    before += n;
  }
  return undefined;
}

/**
 * Where page `offset` of a view or status, alone or with the one filter a counter holds (`counter`, counterOf), in
 * `sort` order, starts (movie_count_weeks; weekStart): page 1000 of a view walks from the week that
 * holds its first row instead of 20,000 entries, page 50 of a tag in the review queue instead of 35,000.
 */
export async function viewPageStart(
  db: Executor,
  statuses: readonly MovieStatus[],
  counter: Counter,
  sort: 'created' | 'published',
  descending: boolean,
  page: { offset: number; pageSize: number },
) {
  const w = movieCountWeeks;
  const weeks = rowsOf<{ week: string; n: number; total: number }>(
    await db.execute(sql`select ${w.week}::text as week, sum(${w.n})::int as n,
        (select coalesce(sum(${movieCounts.n}), 0)::int from ${movieCounts}
          where ${movieCounts.dim} = ${counter.dim} and ${movieCounts.key} = ${counter.key}
            and ${inArray(movieCounts.status, [...statuses])}) as total
      from ${w}
      where ${w.dim} = ${counter.dim} and ${w.key} = ${counter.key} and ${w.sort} = ${sort}
        and ${inArray(w.status, [...statuses])}
      group by 1 having sum(${w.n}) > 0 order by 1 ${descending ? sql`desc` : sql`asc`}`),
  );
  return weekStart(weeks, Number(weeks[0]?.total ?? 0), descending, page);
}

/** A long title search matching more than this many movies reads its page by walking the sort index (readPlanned). */
export const WALK_FROM = 1_000;

/**
 * Whether walking the sort index finds a long title search's page sooner than reading every match through the GIN
 * index and sorting: the walk tests about (offset + page size) × rows ÷ matches movies (the matches spread evenly
 * over the `rows` the other filters leave), the bitmap reads the matches; each costs about a table page a movie. So
 * a first page of a common word walks, and page 50 of a word that matches one movie in sixty does not (it would walk
 * about sixty index entries for each page row the bitmap reads). `matches` is a capped count: at the cap, at least that.
 */
export function walkPays(page: { offset: number; pageSize: number }, matches: number, rows: number) {
  if (matches <= WALK_FROM) return false;
  return ((page.offset + page.pageSize) * rows) / matches < matches;
}

/**
 * Whether a title search alone (searchAlone) finds its page sooner by walking each status's index, testing the title
 * there (index-only, list.ts mergedPage), than by reading every match through the GIN index and sorting. A status's
 * walk tests about (offset + page size) × rows ÷ matches index entries, at most all of its movies; the bitmap reads a
 * table page per match, which costs about as much as testing WALK_PER_MATCH index entries (`npm run bench -- movies`
 * measures both).
 */
export function statusWalkPays(
  page: { offset: number; pageSize: number },
  matches: number,
  rows: number,
  statuses: number,
) {
  if (matches === 0) return false;
  const walked = Math.min(rows, (statuses * (page.offset + page.pageSize) * rows) / matches);
  return walked < WALK_PER_MATCH * matches;
}

/** Index entries tested in a walk that cost about one table page read through a bitmap (statusWalkPays). */
export const WALK_PER_MATCH = 20;

/**
 * The rows a list would have without its title search, from a counter: those of its other filters when a counter
 * holds them, else of its view or status alone (more than the list's: a walk is then judged longer than it is).
 */
export async function rowsWithoutSearch(db: Executor, { statuses, query }: TotalQuery): Promise<number> {
  const { q: _q, ...rest } = query;
  return counted(db, counterOf(rest) ?? { dim: 'all', key: 0 }, statuses);
}

/** A counter's total over the statuses. */
async function counted(db: Executor, counter: Counter, statuses: readonly MovieStatus[]) {
  return counterSum(
    db,
    movieCounts,
    movieCounts.n,
    and(
      eq(movieCounts.dim, counter.dim),
      eq(movieCounts.key, counter.key),
      inArray(movieCounts.status, [...statuses]),
    ),
  );
}

/**
 * Runs a page query, walking the sort index when told to. The planner estimates a title search of three or more
 * characters as the product of its bigrams' frequencies (as if "ci", "it" and "ty" were independent), thousands of
 * times too few for a common word, and then reads every match through the GIN index and sorts them (every match
 * read and sorted for one page). When the capped count has shown more than WALK_FROM matches (at least one
 * movie in a thousand), the first pages are found sooner by reading the sort index in order and testing each
 * movie, so sequential and bitmap scans and sorts are switched off for the query of the page's ids (set_config
 * local to its own read transaction). Only for sorts that have an index (`walkSortIndex` is false otherwise).
 * `serial` alone only forbids parallel workers and JIT, for a walk the planner already chose (list.ts mergedPage).
 */
export async function readPlanned<T>(
  db: Db,
  plan: { walkSortIndex: boolean; serial?: boolean },
  run: (db: Executor) => Promise<T>,
): Promise<T> {
  if (!plan.walkSortIndex && !plan.serial) return run(db);
  return db.transaction(async (tx) => {
    // Local to this transaction. No parallel workers either (starting them costs more than the walk they would
    // share) nor JIT (the switched-off plans'
    // inflated costs would trigger it).
    await tx.execute(
      plan.walkSortIndex
        ? sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
          set_config('enable_sort', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
          set_config('jit', 'off', true)`
        : sql`select set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)`,
    );
    return run(tx);
  });
}
