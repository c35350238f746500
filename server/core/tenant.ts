import { and, asc, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/types';
import { Code } from './codes';
import type { AppContext } from './context';
import { ApiError } from './errors';

/**
 * The tenant an admin route works on: the configured default one (DEFAULT_TENANT, SPEC.md §9's tenant 2). The
 * admin has no tenant switch; per-tenant records carry the tenant so that the site API can answer per tenant.
 */
export const tenantOf = (c: AppContext) => c.get('deps').config.defaultTenant;

/**
 * Locks the rows `ids` of one tenant for update, in id order (two batches lock in the same order), and answers
 * their distinct ids; 40400 naming the missing ones (another tenant's ids do not exist for this one).
 */
export async function lockTenantRows(
  tx: Executor,
  table: PgTable & { id: PgColumn; tenant: PgColumn },
  ids: number[],
  tenant: number,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  const rows = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(inArray(table.id, unique), eq(table.tenant, tenant)))
    .orderBy(asc(table.id))
    .for('update');
  if (rows.length === unique.length) return unique;
  const found = new Set(rows.map((r) => r.id as number));
  throw new ApiError(Code.NOT_FOUND, 'notFound.ids', {
    ids: unique
      .filter((i) => !found.has(i))
      .slice(0, 20)
      .join(', '),
  });
}
