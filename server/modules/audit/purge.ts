import { eq, sql } from 'drizzle-orm';
import { purgeAudit } from '../../core/audit';
import { transaction } from '../../core/shared';
import type { Db, Executor } from '../../db/types';
import { auditSettings } from './schema';

/** Days the log keeps entries until an admin says otherwise. */
export const AUDIT_RETENTION_DEFAULT = 180;

/** How often one instance (of several) purges: the claim below lets one of them do it per interval. */
export const PURGE_INTERVAL_SECONDS = 3600;

export async function readAuditSettings(db: Executor, tenant: number) {
  const [row] = await db.select().from(auditSettings).where(eq(auditSettings.tenant, tenant));
  return { retentionDays: row?.retentionDays ?? AUDIT_RETENTION_DEFAULT, version: row?.version ?? 0 };
}

/**
 * Claims the tenant's purge when the interval has gone by since the last one (one instance of several gets it, by
 * the row update), then removes the entries older than the retention in one transaction with the claim. Answers
 * how many went, or null when another instance (or an earlier tick) had it.
 */
export async function purgeExpiredAudit(
  db: Db,
  tenant: number,
  now: Date,
  intervalSeconds = PURGE_INTERVAL_SECONDS,
): Promise<number | null> {
  return transaction(db, async (tx) => {
    await tx
      .insert(auditSettings)
      .values({ tenant, version: 0, updatedAt: now })
      .onConflictDoNothing({ target: auditSettings.tenant });
    const claimed = await tx
      .update(auditSettings)
      .set({ lastPurgeAt: now })
      .where(
        sql`${auditSettings.tenant} = ${tenant} and (${auditSettings.lastPurgeAt} is null or ${auditSettings.lastPurgeAt} <= ${now}::timestamptz - make_interval(secs => ${intervalSeconds}))`,
      )
      .returning({ retentionDays: auditSettings.retentionDays });
    if (!claimed.length) return null;
    return purgeAudit(tx, new Date(now.getTime() - claimed[0].retentionDays * 86_400_000));
  });
}
