import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { CHANNEL_PATTERN } from '../../../common/domain';
import { auditedRoute, auditMany } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { listQuery } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, conflict, invalidField } from '../../core/errors';
import { createRoute } from '../../core/route';
import { id, rejectUnknownQuery, transaction, version } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { rowsOf } from '../../db/migrate';
import type { Tx } from '../../db/types';
import {
  type Actor,
  actorOf,
  bumpResolveVersion,
  type DomainRow,
  recordHistory,
  statusValues,
  toUnicode,
} from './model';
import { domains } from './schema';

const tags = ['domain config'];

const Channels = z
  .object({
    list: z.array(
      z.object({
        channel: z.string(),
        domains: z.array(
          z.object({
            id: z.number(),
            hostname: z.string(),
            unicode: z.string(),
            role: z.string(),
            status: z.string(),
            poolId: z.number().nullable(),
            version: z.number(),
          }),
        ),
      }),
    ),
    total: z.number(),
  })
  .openapi('DomainChannels');

/** Channels are paged like every list (page sizes of common/paging.ts), ordered by code. */
const ChannelsQuery = listQuery(['channel'], {
  q: z.string().trim().max(64).optional(),
  channel: z.string().trim().max(64).optional(),
});

const channelsRoute = createRoute({
  method: 'get',
  path: '/channels',
  tags,
  security,
  summary:
    'The channels (agent promotion codes) and the domains bound to each, paged by channel; `q` filters by the start of the code',
  middleware: can('domain.read'),
  request: { query: ChannelsQuery },
  responses: jsonResponse(Channels),
});

const SwapBody = z
  .object({
    channel: z.string().trim().regex(CHANNEL_PATTERN),
    fromId: id,
    toId: id,
    fromVersion: version.optional(),
    toVersion: version.optional(),
    fromStatus: z.enum(['retired', 'standby', 'blocked', 'expired']).optional().default('retired'),
    reason: z.string().trim().max(256).optional().default(''),
    dryRun: z.boolean().optional().default(false),
  })
  .strict()
  .openapi('DomainSwap');

const Change = z.object({
  id: z.number(),
  hostname: z.string(),
  unicode: z.string(),
  field: z.string(),
  from: z.string(),
  to: z.string(),
});

const swapRoute = createRoute({
  method: 'post',
  path: '/swap',
  tags,
  security,
  summary:
    "Replace domain A by domain B across a channel in one transaction: B takes A's binding, role and weight and goes live, A leaves the channel (retired by default). `dryRun` answers the changes without making them",
  middleware: can('domain.edit'),
  request: { body: jsonBody(SwapBody) },
  responses: jsonResponse(
    z.object({ changes: z.array(Change), done: z.boolean() }).openapi('DomainSwapAnswer'),
  ),
});

type Swap = z.infer<typeof SwapBody>;

/** What swapping `from` for `to` on `channel` changes, field by field (the preview and the history). */
export function swapChanges(from: DomainRow, to: DomainRow, channel: string, fromStatus: string) {
  const show = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const out: z.infer<typeof Change>[] = [];
  const add = (d: DomainRow, field: string, a: unknown, b: unknown) => {
    if (show(a) !== show(b))
      out.push({
        id: d.id,
        hostname: d.hostname,
        unicode: toUnicode(d.hostname),
        field,
        from: show(a),
        to: show(b),
      });
  };
  add(from, 'channel', from.channel, null);
  add(from, 'status', from.status, fromStatus);
  add(to, 'channel', to.channel, channel);
  add(to, 'role', to.role, from.role);
  add(to, 'weight', to.weight, from.weight);
  add(to, 'status', to.status, 'active');
  return out;
}

/**
 * Swaps in the caller's transaction (the health checker's auto-replacement uses it too): locks both rows, checks
 * that A is bound to the channel and B is free and usable, writes both and two history rows.
 */
export async function swapDomains(
  tx: Tx,
  tenant: number,
  actor: Actor,
  now: Date,
  body: Swap,
  commit: boolean,
) {
  if (body.fromId === body.toId) throw invalidField('toId', 'domain.swap.same');
  const rows = await tx
    .select()
    .from(domains)
    .where(and(eq(domains.tenant, tenant), inArray(domains.id, [body.fromId, body.toId])))
    .orderBy(domains.id)
    .for('update');
  const from = rows.find((r) => r.id === body.fromId);
  const to = rows.find((r) => r.id === body.toId);
  if (!from) throw invalidField('fromId', 'field.notFound');
  if (!to) throw invalidField('toId', 'field.notFound');
  if (
    (body.fromVersion && body.fromVersion !== from.version) ||
    (body.toVersion && body.toVersion !== to.version)
  )
    throw conflict();
  if (from.channel !== body.channel)
    throw invalidField('fromId', 'domain.swap.notBound', { channel: body.channel });
  if (to.channel && to.channel !== body.channel)
    throw invalidField('toId', 'domain.swap.bound', { channel: to.channel });
  if (to.status !== 'standby' && to.status !== 'active') throw invalidField('toId', 'domain.swap.notUsable');
  const changes = swapChanges(from, to, body.channel, body.fromStatus);
  if (!commit) return changes;
  await tx
    .update(domains)
    .set({
      channel: null,
      ...statusValues(body.fromStatus, now, body.fromStatus === 'retired' ? body.reason : undefined),
      version: sql`${domains.version} + 1`,
      updatedAt: now,
    } as any)
    .where(eq(domains.id, from.id));
  await tx
    .update(domains)
    .set({
      channel: body.channel,
      role: from.role,
      weight: from.weight,
      status: 'active',
      retiredAt: null,
      failCount: 0,
      version: sql`${domains.version} + 1`,
      updatedAt: now,
    })
    .where(eq(domains.id, to.id));
  const action = actor.id === null ? 'replace' : 'swap';
  await recordHistory(tx, tenant, actor, now, [
    {
      domainId: from.id,
      hostname: from.hostname,
      poolId: from.poolId,
      channel: body.channel,
      action,
      from: from.hostname,
      to: to.hostname,
      reason: body.reason,
    },
    {
      domainId: to.id,
      hostname: to.hostname,
      poolId: to.poolId,
      channel: body.channel,
      action,
      from: from.hostname,
      to: to.hostname,
      reason: body.reason,
    },
  ]);
  await bumpResolveVersion(tx, tenant);
  return changes;
}

/** Channel bindings (`/domain/config`, `configEdit`): who is bound where, and the previewed swap. */
export function configRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(channelsRoute, async (c) => {
    rejectUnknownQuery(c as AppContext, ChannelsQuery);
    const { q, channel, page, pageSize } = c.req.valid('query');
    const tenant = tenantOf(c);
    const prefix = q ? `${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : '%';
    const match = sql`tenant = ${tenant} and channel is not null and channel like ${prefix}
      ${channel ? sql`and channel = ${channel}` : sql``}`;
    const rows = rowsOf<Record<string, any>>(
      await c.get('deps').db.execute(sql`
        with ch as (
          select distinct channel from domains where ${match}
          order by channel limit ${pageSize} offset ${(page - 1) * pageSize}
        )
        select d.id, d.hostname, d.role, d.status, d.pool_id, d.version, d.channel,
               (select count(distinct channel)::int from domains where ${match}) as total
        from domains d join ch on ch.channel = d.channel
        where d.tenant = ${tenant}
        order by d.channel, d.id`),
    );
    const byChannel = new Map<string, any[]>();
    for (const r of rows) {
      if (!byChannel.has(r.channel)) byChannel.set(r.channel, []);
      byChannel.get(r.channel)!.push({
        id: Number(r.id),
        hostname: r.hostname,
        unicode: toUnicode(r.hostname),
        role: r.role,
        status: r.status,
        poolId: r.pool_id === null ? null : Number(r.pool_id),
        version: Number(r.version),
      });
    }
    const total = rows.length
      ? Number(rows[0].total)
      : Number(
          rowsOf<{ n: number }>(
            await c
              .get('deps')
              .db.execute(sql`select count(distinct channel)::int as n from domains where ${match}`),
          )[0].n,
        );
    return ok(c, { list: [...byChannel].map(([ch, list]) => ({ channel: ch, domains: list })), total });
  });

  app.openapi(auditedRoute(swapRoute), async (c) => {
    const body = c.req.valid('json');
    const { db, clock } = c.get('deps');
    const actor = actorOf(c);
    const changes = await transaction(db, async (tx) => {
      const made = await swapDomains(tx, tenantOf(c), actor, clock.now(), body, !body.dryRun);
      // A dry run changes nothing and leaves no entry.
      if (!body.dryRun)
        await auditMany(tx, c, {
          resource: 'domain config',
          action: 'swap',
          recordId: body.fromId,
          ids: [body.fromId, body.toId],
          changed: made.length,
          extra: {
            channel: body.channel,
            reason: body.reason,
            fields: made.map((m) => ({
              id: m.id,
              hostname: m.hostname,
              field: m.field,
              before: m.from,
              after: m.to,
            })),
          },
        });
      return made;
    });
    if (!changes.length) throw new ApiError(Code.INVALID, 'domain.swap.nothing');
    return ok(c, { changes, done: !body.dryRun });
  });
  return app;
}
