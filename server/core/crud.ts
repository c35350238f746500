import { z } from '@hono/zod-openapi';
import { type AnyColumn, and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { Code } from '../../common/codes';
import { PAGE_SIZES } from '../../common/paging';
import type { Executor } from '../db/types';
import { ApiError, conflict, notFound } from './errors';
import { sqlStateOf } from './sql-state';
import { cappedCount, type ListTotal } from './totals';

/** The largest PostgreSQL `integer`: ids and versions beyond it are 40000, not a database error. */
export const PG_INT_MAX = 2_147_483_647;

const intString = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** `?ids=1,2,3` for react-admin's getMany. */
export const idList = z
  .string()
  .regex(/^\d{1,9}(,\d{1,9}){0,99}$/)
  .transform((s) => s.split(',').map(Number));

/**
 * The query of a list route: page, pageSize, sort (allow-listed), order, ids, plus the resource's own filters.
 * Unknown sort fields, page sizes and filter values are refused with 40000 naming the field.
 */
export function listQuery<F extends z.ZodRawShape, S extends readonly [string, ...string[]]>(
  sorts: S,
  filters: F,
) {
  return z.object({
    page: intString(1, 1_000_000).optional().default(1),
    pageSize: z
      .enum(PAGE_SIZES.map(String) as [string, ...string[]])
      .transform(Number)
      .optional()
      .default(20),
    sort: z.enum(sorts).optional(),
    order: z.enum(['asc', 'desc']).optional().default('asc'),
    ids: idList.optional(),
    ...filters,
  });
}

export const idParam = z.object({
  id: intString(1, 2_147_483_647).openapi({ param: { name: 'id', in: 'path' } }),
});

/** `{action, ids}` of a batch route: every id exists or nothing changes. */
export function batchBody<A extends readonly [string, ...string[]]>(actions: A) {
  return z.object({
    action: z.enum(actions),
    ids: z.array(z.number().int().positive().max(PG_INT_MAX)).min(1).max(1000),
  });
}

export interface Page<T> extends ListTotal {
  list: T[];
}

/** What a list route's query (listQuery) gives the page: page, size, direction, and `ids` for getMany. */
export interface ListParams {
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  ids?: number[];
}

/**
 * One page and its total: the page query and a count capped at COUNT_CAP + 1 rows (server/core/totals.ts) run on the
 * same filter at once. Ties are broken by id, so pages never overlap; a getMany (`ids`) gets all its rows on one
 * page; `select` defaults to every column.
 */
export async function listPage<T>(
  db: Executor,
  opts: {
    table: PgTable & { id: AnyColumn };
    where?: SQL;
    orderBy: AnyColumn;
    query: ListParams;
    select?: Record<string, any>;
  },
): Promise<Page<T>> {
  const { page, order, ids } = opts.query;
  const pageSize = ids ? Math.max(opts.query.pageSize, ids.length) : opts.query.pageSize;
  const direction = order === 'desc' ? desc : asc;
  const [rows, total] = await Promise.all([
    db
      .select((opts.select ?? getTableColumns(opts.table)) as any)
      .from(opts.table)
      .where(opts.where)
      .orderBy(direction(opts.orderBy), direction(opts.table.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    cappedCount(db, opts.table, opts.where),
  ]);
  return { list: rows as T[], ...total };
}

/** The row with this id (and `where`, e.g. not deleted), or 40400. `select` defaults to every column. */
export async function findById<T>(
  db: Executor,
  table: PgTable & { id: AnyColumn },
  id: number,
  options: { select?: Record<string, any>; where?: SQL } = {},
): Promise<T> {
  const [row] = await db
    .select((options.select ?? getTableColumns(table)) as any)
    .from(table)
    .where(and(eq(table.id, id), options.where));
  if (!row) throw notFound();
  return row as T;
}

/**
 * Optimistic locking: updates the row only if its `version` is still the one the client read, and bumps it.
 * A stale version is 40900 and nothing is written; a missing row is 40400.
 */
export async function updateVersioned<T>(
  db: Executor,
  table: PgTable & { id: any; version: any },
  id: number,
  version: number,
  values: Record<string, unknown>,
  extraWhere?: SQL,
): Promise<T> {
  const rows = await db
    .update(table)
    .set({ ...values, version: sql`${table.version} + 1` } as any)
    .where(and(eq(table.id, id), eq(table.version, version), extraWhere))
    .returning();
  if (rows.length) return rows[0] as T;
  const exists = await db
    .select({ id: table.id as any })
    .from(table as any)
    .where(and(eq(table.id, id), extraWhere));
  throw exists.length ? conflict() : notFound();
}

/** A unique-constraint violation from either driver (Drizzle wraps the driver's error in `cause`). */
export const isUniqueViolation = (err: unknown) => sqlStateOf(err) === '23505';

/**
 * Every id of a batch must exist: locks the rows `ids` (and `where`, e.g. the tenant) in id order (two batches lock
 * in the same order) and answers their distinct ids; 40400 naming the missing ones (rows outside `where` do not
 * exist for the caller; the caller's transaction then changes nothing). `lock` is the row lock: `update` (default),
 * `no key update` (rows that links reference: inserting a link still goes on), or `null` to check only (rows that
 * must be locked after others, e.g. shared counter rows after the movies).
 */
export async function lockRows(
  tx: Executor,
  table: PgTable & { id: any },
  ids: number[],
  where?: SQL,
  lock: 'update' | 'no key update' | null = 'update',
): Promise<number[]> {
  const unique = [...new Set(ids)];
  const query = tx
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, unique), where))
    .orderBy(asc(table.id));
  const rows = lock ? await query.for(lock) : await query;
  if (rows.length === unique.length) return unique;
  const found = new Set(rows.map((r: { id: number }) => r.id));
  throw new ApiError(Code.NOT_FOUND, 'notFound.ids', {
    ids: unique
      .filter((i) => !found.has(i))
      .slice(0, 20)
      .join(', '),
  });
}
