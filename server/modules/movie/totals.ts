import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { MOVIE_COUNTED_FILTERS } from '../../../common/movie';
import { cappedCount, keptSum, type ListTotal, PAGING_PARAMS, shortPageTotal } from '../../core/totals';
import type { Db, Executor } from '../../db/types';
import { type MOVIE_COUNT_DIMS, type MovieStatus, movieCounts, movies } from './schema';

/**
 * Totals of the movie list at a million rows (README "Totals at scale"). A `count(*)` over a large filter is nearly
 * the whole cost of a list (BENCHMARKS.md), so:
 * - a list filtered by view or status and at most one of column, tag and platform reads its exact total from the
 *   counters the triggers keep (`movie_counts`, migration 0004): a few rows, whatever the size;
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

type Counter = { dim: (typeof MOVIE_COUNT_DIMS)[number]; key: number };

/** The counter holding the exact total of a list, when its filters map onto one. */
export function counterOf(query: Record<string, unknown>): Counter | undefined {
  const set = (k: string) => query[k] !== undefined && query[k] !== '';
  if (Object.keys(query).some((k) => set(k) && !COUNTED.has(k))) return undefined;
  const dims: Counter[] = [];
  if (set('columnId')) dims.push({ dim: 'column', key: Number(query.columnId) });
  if (set('tagId')) dims.push({ dim: 'tag', key: Number(query.tagId) });
  if (set('platform')) dims.push({ dim: 'platform', key: Number(query.platform) });
  if (dims.length > 1) return undefined;
  return dims[0] ?? { dim: 'all', key: 0 };
}

/** The total of a list; given the page read (at `offset`, `pageSize` wide, `pageRows` rows), a short one answers. */
export async function listTotal(
  db: Executor,
  { statuses, query }: TotalQuery,
  where: SQL | undefined,
  page?: { offset: number; pageSize: number; pageRows: number },
): Promise<ListTotal> {
  const short = page && shortPageTotal({ offset: page.offset, pageSize: page.pageSize, rows: page.pageRows });
  if (short) return short;
  const counter = counterOf(query);
  if (counter) return { total: await counted(db, counter, statuses), totalExact: true };
  return cappedCount(db, movies, where);
}

/** A long title search matching more than this many movies reads its page by walking the sort index (readPlanned). */
export const WALK_FROM = 1_000;

/**
 * Whether walking the sort index finds a long title search's page sooner than reading every match through the GIN
 * index and sorting: the walk tests about (offset + page size) × rows ÷ matches movies (the matches spread evenly
 * over the `rows` the other filters leave), the bitmap reads the matches; each costs about a table page a movie. So
 * a first page of a common word walks, and page 50 of a word that matches one movie in sixty does not (it walked
 * 64,000 movies, 640 ms, where the bitmap reads 4,700). `matches` is a capped count: at the cap, at least that.
 */
export function walkPays(page: { offset: number; pageSize: number }, matches: number, rows: number) {
  if (matches <= WALK_FROM) return false;
  return ((page.offset + page.pageSize) * rows) / matches < matches;
}

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
  return keptSum(
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
 * times too few for a common word, and then reads every match through the GIN index and sorts them (50–70 ms for
 * 16,000 matches at a million movies). When the capped count has shown more than WALK_FROM matches (at least one
 * movie in a thousand), the first pages are found sooner by reading the sort index in order and testing each
 * movie, so sequential and bitmap scans and sorts are switched off for the query of the page's ids (set_config
 * local to its own read transaction). Only for sorts that have an index (`walkSortIndex` is false otherwise).
 */
export async function readPlanned<T>(
  db: Db,
  plan: { walkSortIndex: boolean },
  run: (db: Executor) => Promise<T>,
): Promise<T> {
  if (!plan.walkSortIndex) return run(db);
  return db.transaction(async (tx) => {
    // Local to this transaction. No parallel workers either (starting them costs more than the walk) nor JIT (the
    // switched-off plans' inflated costs would trigger it).
    await tx.execute(
      sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
        set_config('enable_sort', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
        set_config('jit', 'off', true)`,
    );
    return run(tx);
  });
}
