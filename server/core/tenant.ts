import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/types';
import type { AppContext } from './context';
import { lockRows } from './crud';

/**
 * The tenant an admin route works on: the configured default one (DEFAULT_TENANT, SPEC.md §9's tenant 2). The
 * admin has no tenant switch; per-tenant records carry the tenant so that the site API can answer per tenant.
 */
export const tenantOf = (c: AppContext) => c.get('deps').config.defaultTenant;

/** `lockRows` within one tenant: another tenant's ids do not exist for this one (40400). */
export const lockTenantRows = (
  tx: Executor,
  table: PgTable & { id: PgColumn; tenant: PgColumn },
  ids: number[],
  tenant: number,
): Promise<number[]> => lockRows(tx, table, ids, eq(table.tenant, tenant));
