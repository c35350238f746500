import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/types';
import { DEFAULT_SETTINGS } from './defaults';
import { systemSettings } from './schema';

/** A named query other modules may use: the settings of one tenant. */
export async function readSettings(db: Executor, t: number) {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.tenant, t));
  return { ...DEFAULT_SETTINGS, ...(row?.data ?? {}), tenant: t, version: row?.version ?? 0 };
}

/** The setting that lists the internal hosts an admin allows server-side fetches to reach (hostnames, IPs, CIDRs). */
export const OUTBOUND_ALLOW = 'outboundAllow';

/**
 * A named query for every server-side fetch (health checks, collection): the admin's allow-list of internal hosts,
 * to pass as `allowHosts` to the outbound guard. Empty unless an admin saved one.
 */
export async function outboundAllowList(db: Executor, t: number): Promise<string[]> {
  const value = ((await readSettings(db, t)) as Record<string, unknown>)[OUTBOUND_ALLOW];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
