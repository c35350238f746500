import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/types';
import { DEFAULT_SETTINGS } from './defaults';
import { systemSettings } from './schema';

/** A named query other modules may use: the settings of one tenant. */
export async function readSettings(db: Executor, t: number) {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.tenant, t));
  return { ...DEFAULT_SETTINGS, ...(row?.data ?? {}), tenant: t, version: row?.version ?? 0 };
}
