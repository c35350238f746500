import { and, asc, eq, sql } from 'drizzle-orm';
import { eachLimited } from '../../core/each-limited';
import { transaction } from '../../core/shared';
import { rowsOf } from '../../db/migrate';
import type { Db, Tx } from '../../db/types';
import { outboundAllowList } from '../sys/settings';
import { swapDomains } from './config-routes';
import { type Actor, bumpResolveVersion, dayOf, HEALTH_ACTOR, readSettings, recordHistory } from './model';
import { type domainSettings, domains } from './schema';

/** What a probe found: reachable (an HTTP answer below 500) or why not. */
export type ProbeResult = { ok: true } | { ok: false; error: string };
/**
 * Resolves and fetches one hostname within `timeoutMs`, refusing internal addresses other than `allowHosts` (the
 * admin's allow-list of the system settings). Node: server/node/domain-health.ts through the outbound guard.
 */
export type Probe = (
  hostname: string,
  timeoutMs: number,
  allowHosts?: readonly string[],
) => Promise<ProbeResult>;

const CHECKER: Actor = { id: null, name: HEALTH_ACTOR };

export interface CheckOutcome {
  /** Domains whose registration had run out, marked expired before the probes. */
  expired: number;
  checked: number;
  failed: number;
  blocked: number;
  replaced: number;
}

/**
 * One pass of the health checker: first the domains whose registration ran out are marked expired (see
 * `expireDomains`), then the tenant's active domains are probed, `concurrency` probes at a time. A failure counts
 * up `failCount`; at the settings' threshold the domain is blocked, and a blocked channel domain is replaced by the
 * first standby of its pool when the settings allow (the swap of config-routes, by the checker). Every change is a
 * history row by `health-checker` with the probe's error as the reason.
 */
export async function runHealthCheck(
  db: Db,
  opts: { tenant: number; now: () => Date; probe: Probe; concurrency?: number },
): Promise<CheckOutcome> {
  const settings = await readSettings(db, opts.tenant);
  const allowHosts = await outboundAllowList(db, opts.tenant);
  const expiry = await expireDomains(db, opts.tenant, settings, opts.now());
  const active = await db
    .select({ id: domains.id, hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.tenant, opts.tenant), eq(domains.status, 'active')))
    .orderBy(asc(domains.id));
  const outcome: CheckOutcome = {
    expired: expiry.expired,
    checked: 0,
    failed: 0,
    blocked: 0,
    replaced: expiry.replaced,
  };
  await eachLimited(active, opts.concurrency ?? 8, async (d) => {
    let result: ProbeResult;
    try {
      result = await opts.probe(d.hostname, settings.checkTimeoutMs, allowHosts);
    } catch (err) {
      result = { ok: false, error: (err as Error).message || 'error' };
    }
    outcome.checked++;
    if (!result.ok) outcome.failed++;
    const r = await record(db, opts.tenant, d.id, result, settings, opts.now());
    outcome.blocked += r.blocked;
    outcome.replaced += r.replaced;
  });
  return outcome;
}

async function record(
  db: Db,
  tenant: number,
  id: number,
  result: ProbeResult,
  settings: typeof domainSettings.$inferSelect,
  now: Date,
) {
  return transaction(db, async (tx) => {
    const [d] = await tx.select().from(domains).where(eq(domains.id, id)).for('update');
    // Changed meanwhile (an operator retired it): the probe's answer is about a domain no longer live.
    if (d?.status !== 'active') return { blocked: 0, replaced: 0 };
    if (result.ok) {
      await tx
        .update(domains)
        .set({ checkedAt: now, checkOk: true, checkError: '', failCount: 0 })
        .where(eq(domains.id, id));
      return { blocked: 0, replaced: 0 };
    }
    const failCount = d.failCount + 1;
    const error = result.error.slice(0, 256);
    if (failCount < settings.failThreshold) {
      await tx
        .update(domains)
        .set({ checkedAt: now, checkOk: false, checkError: error, failCount })
        .where(eq(domains.id, id));
      return { blocked: 0, replaced: 0 };
    }
    await tx
      .update(domains)
      .set({
        checkedAt: now,
        checkOk: false,
        checkError: error,
        failCount,
        status: 'blocked',
        version: sql`${domains.version} + 1`,
        updatedAt: now,
      })
      .where(eq(domains.id, id));
    await recordHistory(tx, tenant, CHECKER, now, [
      {
        domainId: d.id,
        hostname: d.hostname,
        poolId: d.poolId,
        channel: d.channel,
        action: 'health',
        from: 'active',
        to: 'blocked',
        reason: error,
      },
    ]);
    await bumpResolveVersion(tx, tenant);
    const replaced = await replaceFromStandby(tx, tenant, settings, d, 'blocked', error, now);
    return { blocked: 1, replaced };
  });
}

/**
 * When the settings allow it, a channel domain that went out of service is replaced by the first standby of its
 * pool (the swap of config-routes, by the checker, with its history rows). Answers 1 when it was, 0 otherwise.
 */
async function replaceFromStandby(
  tx: Tx,
  tenant: number,
  settings: typeof domainSettings.$inferSelect,
  d: { id: number; poolId: number | null; channel: string | null },
  fromStatus: 'blocked' | 'expired',
  reason: string,
  now: Date,
) {
  if (!settings.autoReplace || !d.channel || d.poolId === null) return 0;
  const [standby] = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select id from domains
      where tenant = ${tenant} and pool_id = ${d.poolId} and status = 'standby' and channel is null
        and (expires_on is null or expires_on >= ${dayOf(now)}::date)
      order by id limit 1 for update skip locked`),
  );
  if (!standby) return 0;
  await swapDomains(
    tx,
    tenant,
    CHECKER,
    now,
    { channel: d.channel, fromId: d.id, toId: Number(standby.id), fromStatus, reason, dryRun: false },
    true,
  );
  return 1;
}

/**
 * Marks expired, in one transaction, every active or standby domain whose registration ran out before today (a
 * history row each by the checker, the expiry day as the reason), and replaces the expired channel domains as a
 * failed one is.
 */
export async function expireDomains(
  db: Db,
  tenant: number,
  settings: typeof domainSettings.$inferSelect,
  now: Date,
) {
  return transaction(db, async (tx) => {
    const rows = rowsOf<Record<string, any>>(
      await tx.execute(sql`
        with due as (
          select id, status from domains
          where tenant = ${tenant} and status in ('active', 'standby') and expires_on < ${dayOf(now)}::date
          order by id for update
        )
        update domains d
        set status = 'expired', version = d.version + 1, updated_at = ${now}
        from due where d.id = due.id
        returning d.id, d.hostname, d.pool_id, d.channel, due.status as was, d.expires_on::text as expires_on`),
    );
    if (!rows.length) return { expired: 0, replaced: 0 };
    const expired = rows.map((r) => ({
      id: Number(r.id),
      hostname: r.hostname as string,
      poolId: r.pool_id === null ? null : Number(r.pool_id),
      channel: r.channel as string | null,
      was: r.was as string,
      reason: `expires_on ${r.expires_on}`,
    }));
    await recordHistory(
      tx,
      tenant,
      CHECKER,
      now,
      expired.map((d) => ({
        domainId: d.id,
        hostname: d.hostname,
        poolId: d.poolId,
        channel: d.channel,
        action: 'expire',
        from: d.was,
        to: 'expired',
        reason: d.reason,
      })),
    );
    await bumpResolveVersion(tx, tenant);
    let replaced = 0;
    for (const d of expired)
      if (d.was === 'active')
        replaced += await replaceFromStandby(tx, tenant, settings, d, 'expired', d.reason, now);
    return { expired: expired.length, replaced };
  });
}

/**
 * Claims the tenant's next pass if it is due (`lastCheckAt` + interval ≤ now), atomically, so that of several
 * instances one runs it. Answers whether this caller should run it.
 */
export async function claimHealthPass(db: Db, tenant: number, now: Date): Promise<boolean> {
  await readSettings(db, tenant);
  const rows = rowsOf(
    await db.execute(sql`
      update domain_settings set last_check_at = ${now}
      where tenant = ${tenant}
        and check_enabled
        and (last_check_at is null
             or last_check_at <= ${now}::timestamptz - make_interval(secs => check_interval_seconds))
      returning tenant`),
  );
  return rows.length > 0;
}
