import { z } from '@hono/zod-openapi';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { COUNT_CAP } from '../../common/paging';
import { rowsOf } from '../db/migrate';
import type { Executor } from '../db/types';

export { COUNT_CAP };

/**
 * The total of a list page at any size (docs/sections.md "Totals at scale"), shared by every list: a list whose filter a kept
 * count answers for reads it there (the module's own counters); otherwise a short page is its own total, and
 * anything else counts at most COUNT_CAP + 1 matching rows: exact up to COUNT_CAP, `totalExact: false` beyond
 * ("10,000+" on the screen).
 */
export interface ListTotal {
  total: number;
  /** false: more than COUNT_CAP rows match, `total` is COUNT_CAP. */
  totalExact: boolean;
}

/** The fields of a list answer's total (OpenAPI). */
export const listTotalShape = {
  total: z.number(),
  totalExact: z
    .boolean()
    .openapi({ description: `false when more than ${COUNT_CAP} rows match: total is then ${COUNT_CAP}` }),
};

/** Paging and sorting: the list parameters that never change a total. */
export const PAGING_PARAMS = ['page', 'pageSize', 'sort', 'order'] as const;

/**
 * Whether a parsed list query sets nothing but paging, sorting and `filters` (those a module's kept counts answer
 * for): then its total is a sum of kept counts.
 */
export function onlyFilters(query: object, filters: readonly string[]): boolean {
  return Object.entries(query).every(
    ([k, v]) => v === undefined || filters.includes(k) || (PAGING_PARAMS as readonly string[]).includes(k),
  );
}

/** A sum of stored counters (`n` of the rows of `table` that `where` picks; 0 when none): an exact total in a few rows. */
export async function counterSum(
  db: Executor,
  table: PgTable,
  n: PgColumn,
  where: SQL | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${n}), 0)::int` })
    .from(table)
    .where(where);
  return Number(row.n);
}

/** A page as read: at `offset`, `pageSize` wide, `rows` rows. */
export interface PageRead {
  offset: number;
  pageSize: number;
  rows: number;
}

/** A page shorter than the page size (and not past the end) is its own exact total. */
export function shortPageTotal(page: PageRead | undefined): ListTotal | undefined {
  if (page && page.rows < page.pageSize && (page.rows > 0 || page.offset === 0))
    return { total: page.offset + page.rows, totalExact: true };
  return undefined;
}

/** `n` counted rows of a count capped at COUNT_CAP + 1 as a total. */
export const cappedOf = (n: number): ListTotal =>
  n > COUNT_CAP ? { total: COUNT_CAP, totalExact: false } : { total: n, totalExact: true };

/** Counts at most COUNT_CAP + 1 rows of `table` matching `where` (a short `page` answers without counting). */
export async function cappedCount(
  db: Executor,
  table: PgTable,
  where: SQL | undefined,
  page?: PageRead,
): Promise<ListTotal> {
  const short = shortPageTotal(page);
  if (short) return short;
  const capped = db
    .select({ one: sql`1`.as('one') })
    .from(table)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as('capped');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  return cappedOf(Number(row.n));
}

/**
 * cappedCount that also answers the page when it can: the at most COUNT_CAP + 1 matching rows it counts are kept
 * (their id and sort key) and, when they are all the matches (the total is exact), the page's ids are sorted from
 * them in the same statement. A search whose index gathers its matches (a content search by the bigrams) so pays
 * for them once, not once to count and once more for the page. Beyond the cap `ids` is undefined: the caller reads
 * its page otherwise (walking its sort index). `sort` is NOT NULL; ties break on `id`. Several `where`s are read
 * as the union of their rows, one after another until the cap (the comments' id buckets).
 */
export async function cappedCountWithPage(
  db: Executor,
  opts: {
    table: PgTable;
    where: SQL | undefined | (SQL | undefined)[];
    id: PgColumn;
    sort: PgColumn;
    order: 'asc' | 'desc';
    offset: number;
    pageSize: number;
  },
): Promise<ListTotal & { ids?: number[] }> {
  const { table, where, id, sort, order, offset, pageSize } = opts;
  const dir = order === 'desc' ? sql`desc` : sql`asc`;
  const read = (w: SQL | undefined) =>
    sql`select ${sort} as k, ${id} as id from ${table} ${w ? sql`where ${w}` : sql``}`;
  const matches = Array.isArray(where)
    ? sql`select k, id from (${sql.join(
        where.map((w) => sql`(${read(w)})`),
        sql` union all `,
      )}) as u limit ${COUNT_CAP + 1}`
    : sql`${read(where)} limit ${COUNT_CAP + 1}`;
  const [row] = rowsOf<{ n: number; ids: number[] | null }>(
    // The page is sorted only when the matches are all there (a subquery in CASE runs when its branch is taken).
    await db.execute(sql`with m as materialized (${matches}), c as (select count(*)::int as n from m)
      select c.n, case when c.n <= ${COUNT_CAP} then
        array(select id from m order by k ${dir}, id ${dir} limit ${pageSize} offset ${offset}) end as ids
      from c`),
  );
  const total = cappedOf(Number(row.n));
  return total.totalExact ? { ...total, ids: (row.ids ?? []).map(Number) } : total;
}
