import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import punycode from 'punycode/punycode.js';
import { getDomain } from 'tldts';
import {
  CHANNEL_PATTERN,
  DOMAIN_ROLES,
  DOMAIN_STATUSES,
  type HistoryAction,
  type HostError,
  MAX_WEIGHT,
  normalizeHostname,
} from '../../../common/domain';
import { allowListed } from '../../../common/hosts';
import type { AppContext } from '../../core/context';
import { invalidField } from '../../core/errors';
import { day, id, iso } from '../../core/shared';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { domainHistory, domainSettings, type domains } from './schema';

export type DomainRow = typeof domains.$inferSelect;

/** The actor name of the health checker's changes. */
export const HEALTH_ACTOR = 'health-checker';

/** An ASCII hostname shown in Unicode (punycode labels decoded; one that does not decode stays as it is). */
export function toUnicode(host: string): string {
  try {
    return punycode.toUnicode(host);
  } catch {
    return host;
  }
}

/** The registrable domain of a normalised hostname (null: it is a public suffix). */
export const registrableOf = (host: string) => getDomain(host, { allowPrivateDomains: false });

/**
 * A line → `{host, registrable}` or why not: the shared rules (common/domain.ts), then the public suffix list. A
 * name of the inside passes only when `allow` (the admin's outbound allow-list) names it.
 */
export function checkHostname(
  line: string,
  allow: readonly string[] = [],
): { host: string; registrable: string } | { error: HostError | 'suffix' } {
  const r = normalizeHostname(line);
  if ('error' in r) {
    if (r.error === 'internal' && r.host && allowListed(r.host, allow))
      return { host: r.host, registrable: registrableOf(r.host) ?? r.host };
    return { error: r.error };
  }
  const registrable = registrableOf(r.host);
  if (!registrable) return { error: 'suffix' };
  return { host: r.host, registrable };
}

/**
 * A zod field for one hostname, normalised to ASCII (its message says why a line is refused). A name of the inside
 * passes here: whether the admin's allow-list names it is a database read, done by the route (`checkHostname`).
 */
export const hostnameField = z
  .string()
  .max(300)
  .transform((s, ctx) => {
    const n = normalizeHostname(s);
    if ('error' in n && n.error === 'internal' && n.host) return n.host;
    const r = checkHostname(s);
    if ('error' in r) {
      ctx.addIssue({ code: 'custom', params: { key: `domain.host.${r.error}` } });
      return z.NEVER;
    }
    return r.host;
  });

export const channelField = z
  .string()
  .trim()
  .max(64)
  .refine((s) => s === '' || CHANNEL_PATTERN.test(s), { params: { key: 'domain.channel' } })
  .transform((s) => s || null)
  .nullable();

export const domainFields = {
  role: z.enum(DOMAIN_ROLES),
  poolId: id.nullable(),
  weight: z.number().int().min(0).max(MAX_WEIGHT),
  status: z.enum(DOMAIN_STATUSES),
  registrar: z.string().trim().max(64),
  expiresOn: day.nullable(),
  certExpiresOn: day.nullable(),
  channel: channelField,
  retireReason: z.string().trim().max(256),
};

export const Domain = z
  .object({
    id: z.number(),
    hostname: z.string().openapi({ description: 'ASCII (punycode)' }),
    unicode: z.string().openapi({ description: 'The hostname as people read it' }),
    registrable: z.string(),
    role: z.enum(DOMAIN_ROLES),
    poolId: z.number().nullable(),
    weight: z.number(),
    status: z.enum(DOMAIN_STATUSES),
    registrar: z.string(),
    expiresOn: z.string().nullable(),
    certExpiresOn: z.string().nullable(),
    channel: z.string().nullable(),
    retireReason: z.string(),
    retiredAt: z.string().nullable(),
    checkedAt: z.string().nullable(),
    checkOk: z.boolean().nullable(),
    checkError: z.string(),
    failCount: z.number(),
    version: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Domain');

export const domainToApi = (r: DomainRow): z.infer<typeof Domain> => ({
  id: r.id,
  hostname: r.hostname,
  unicode: toUnicode(r.hostname),
  registrable: r.registrable,
  role: r.role,
  poolId: r.poolId,
  weight: r.weight,
  status: r.status,
  registrar: r.registrar,
  expiresOn: r.expiresOn,
  certExpiresOn: r.certExpiresOn,
  channel: r.channel,
  retireReason: r.retireReason,
  retiredAt: iso(r.retiredAt),
  checkedAt: iso(r.checkedAt),
  checkOk: r.checkOk,
  checkError: r.checkError,
  failCount: r.failCount,
  version: r.version,
  createdAt: iso(r.createdAt) as string,
  updatedAt: iso(r.updatedAt) as string,
});

export interface Actor {
  id: number | null;
  name: string;
}
export const actorOf = (c: AppContext): Actor => {
  const op = c.get('operator');
  return { id: op.id, name: op.account };
};

export interface HistoryEntry {
  domainId: number | null;
  hostname: string;
  poolId: number | null;
  channel: string | null;
  action: HistoryAction;
  from?: string;
  to?: string;
  reason?: string;
}

/** Writes history rows in the caller's transaction (one statement for any number). */
export async function recordHistory(
  tx: Executor,
  tenant: number,
  actor: Actor,
  at: Date,
  entries: HistoryEntry[],
) {
  for (let i = 0; i < entries.length; i += 5000) {
    await tx.insert(domainHistory).values(
      entries.slice(i, i + 5000).map((e) => ({
        tenant,
        at,
        domainId: e.domainId,
        hostname: e.hostname,
        poolId: e.poolId,
        channel: e.channel,
        action: e.action,
        fromValue: (e.from ?? '').slice(0, 300),
        toValue: (e.to ?? '').slice(0, 300),
        actorId: actor.id,
        actor: actor.name.slice(0, 64),
        reason: (e.reason ?? '').slice(0, 256),
      })),
    );
  }
}

/**
 * Bumps the tenant's resolve version (creating its settings row): every instance's resolve cache for the tenant is
 * then stale. Call it in the transaction of every write the resolve endpoint answers from.
 */
export async function bumpResolveVersion(tx: Executor, tenant: number) {
  await tx
    .insert(domainSettings)
    .values({ tenant })
    .onConflictDoUpdate({
      target: domainSettings.tenant,
      set: { resolveVersion: sql`${domainSettings.resolveVersion} + 1` },
    });
}

/** The tenant's settings (defaults when never saved). */
export async function readSettings(db: Executor, tenant: number) {
  const [row] = await db.select().from(domainSettings).where(sql`${domainSettings.tenant} = ${tenant}`);
  if (row) return row;
  const [created] = await db.insert(domainSettings).values({ tenant }).onConflictDoNothing().returning();
  if (created) return created;
  const [again] = await db.select().from(domainSettings).where(sql`${domainSettings.tenant} = ${tenant}`);
  return again;
}

/** A pool id from a body must be one of the tenant's pools. */
export async function assertPool(
  db: Executor,
  tenant: number,
  poolId: number | null | undefined,
  field = 'poolId',
) {
  if (poolId === null || poolId === undefined) return;
  const rows = rowsOf(
    await db.execute(sql`select 1 from domain_pools where id = ${poolId} and tenant = ${tenant}`),
  );
  if (!rows.length) throw invalidField(field, 'field.notFound');
}

/** A day `YYYY-MM-DD` of an instant (UTC): the day a registration's expiry is compared with. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A domain the site may send visitors to: active, with a weight, and not past its registration's expiry (an active
 * domain whose registration ran out is answered by nobody, even before the health checker marks it expired).
 */
export const liveDomain = (alias: string, today: string) =>
  sql`${sql.raw(alias)}.status = 'active' and ${sql.raw(alias)}.weight > 0
      and (${sql.raw(alias)}.expires_on is null or ${sql.raw(alias)}.expires_on >= ${today}::date)`;

/** The values a status change writes beside the status: retirement time and reason. */
export function statusValues(status: string, now: Date, reason?: string) {
  return status === 'retired'
    ? { status, retiredAt: now, ...(reason !== undefined ? { retireReason: reason } : {}) }
    : { status, retiredAt: null };
}
