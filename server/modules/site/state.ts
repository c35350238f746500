import { eq, sql } from 'drizzle-orm';
import { newToken } from '../../core/crypto';
import type { Executor } from '../../db/types';
import { siteState } from './schema';
import { newSecret, sealSecret } from './secret';

/** More future boundaries than this are not kept (the earliest are): a write later recomputes them anyway. */
export const MAX_BOUNDARIES = 500;

/**
 * Named query for every module whose data the site API answers: call it in the transaction of each write (settings,
 * notices, promotion apps, statistics settings). Bumps the tenant's `site_version`, which changes the ETag, and
 * holds the row's lock until the transaction ends, so writers of one tenant take turns here.
 */
export async function bumpSiteVersion(tx: Executor, tenant: number, now: Date) {
  await tx
    .insert(siteState)
    .values({ tenant, siteVersion: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: siteState.tenant,
      set: { siteVersion: sql`${siteState.siteVersion} + 1`, updatedAt: now },
    });
}

/**
 * The future instants at which a notice starts or ends. Call it after `bumpSiteVersion` in the same transaction,
 * with boundaries read after that call: the lock is then held, so what was read includes every other writer's
 * committed notices (READ COMMITTED gives each statement a fresh snapshot).
 */
export async function setSiteBoundaries(tx: Executor, tenant: number, boundaries: Date[]) {
  const kept = [...new Set(boundaries.map((d) => d.getTime()))]
    .sort((a, b) => a - b)
    .slice(0, MAX_BOUNDARIES)
    .map((t) => new Date(t));
  await tx.update(siteState).set({ boundaries: kept }).where(eq(siteState.tenant, tenant));
}

/** The head of a conditional request: one read of one small row by the site key (a unique index). */
export async function readSiteHead(db: Executor, key: string) {
  const [row] = await db
    .select({
      tenant: siteState.tenant,
      siteVersion: siteState.siteVersion,
      boundaries: siteState.boundaries,
      secretCipher: siteState.secretCipher,
    })
    .from(siteState)
    .where(eq(siteState.siteKey, key));
  if (!row) return undefined;
  return { ...row, boundaries: (row.boundaries ?? []).map((b) => new Date(b as unknown as string)) };
}

/** Named query (the statistics' retention): the tenants that have a site key, so may send events. */
export async function tenantsWithSiteKey(db: Executor): Promise<number[]> {
  const rows = await db
    .select({ tenant: siteState.tenant })
    .from(siteState)
    .where(sql`${siteState.siteKey} is not null`);
  return rows.map((r) => Number(r.tenant));
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The tenant's site key (null while none was made) and when its server secret was made (never the secret). */
export async function readSiteKey(db: Executor, tenant: number) {
  const [row] = await db
    .select({
      key: siteState.siteKey,
      updatedAt: siteState.keyUpdatedAt,
      secretUpdatedAt: siteState.secretUpdatedAt,
    })
    .from(siteState)
    .where(eq(siteState.tenant, tenant));
  return {
    key: row?.key ?? null,
    updatedAt: iso(row?.updatedAt),
    secretUpdatedAt: iso(row?.secretUpdatedAt),
  };
}

/**
 * A new server secret for the tenant, answered this once and stored sealed with the server's key: the old one stops
 * working at once (no overlap: a secret is rotated because it may have leaked).
 */
export async function rotateSiteSecret(db: Executor, tenant: number, now: Date, keyHex: string | undefined) {
  const secret = newSecret();
  const sealed = await sealSecret(keyHex, secret);
  await db
    .insert(siteState)
    .values({ tenant, secretCipher: sealed, secretUpdatedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: siteState.tenant,
      set: { secretCipher: sealed, secretUpdatedAt: now, updatedAt: now },
    });
  return { secret, secretUpdatedAt: now.toISOString() };
}

/** A new site key for the tenant (the old one stops working at once). */
export async function regenerateSiteKey(db: Executor, tenant: number, now: Date) {
  const key = `sk_${newToken()}`;
  await db
    .insert(siteState)
    .values({ tenant, siteKey: key, keyUpdatedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: siteState.tenant,
      set: { siteKey: key, keyUpdatedAt: now, updatedAt: now },
    });
  return { key, updatedAt: now.toISOString() };
}
