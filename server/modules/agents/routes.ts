import { z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { AGENT_MODELS, MAX_RATE, MAX_SHARE, PAYOUT_METHODS } from '../../../common/agents';
import { Code } from '../../../common/codes';
import { CHANNEL_PATTERN } from '../../../common/domain';
import { auditedRoute, auditMany } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext } from '../../core/context';
import { idParam } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { crudResource, isoTimestamps, switchActions } from '../../core/resource';
import { createRoute } from '../../core/route';
import {
  boolQuery,
  containsPattern,
  countOf,
  duplicate,
  id as idSchema,
  intQuery,
  transaction,
} from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Executor, Tx } from '../../db/types';
import { actorOf, bumpResolveVersion, type HistoryEntry, recordHistory } from '../domain/model';
import { domains } from '../domain/schema';
import { agentSettlements, agents } from './schema';

export type AgentRow = typeof agents.$inferSelect;

const Agent = z
  .object({
    id: z.number(),
    name: z.string(),
    contact: z.string(),
    channel: z.string(),
    model: z.enum(AGENT_MODELS),
    rate: z.number(),
    parentId: z.number().nullable(),
    enabled: z.boolean(),
    payee: z.string(),
    payoutMethod: z.enum(PAYOUT_METHODS),
    payoutAccount: z.string(),
    notes: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('Agent');

/** Money with at most two decimals. */
const amount = z
  .number()
  .min(0)
  .max(MAX_RATE)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { params: { key: 'agent.rateCents' } });

const agentFields = {
  name: z.string().trim().min(1).max(64),
  contact: z.string().trim().max(128),
  channel: z.string().trim().regex(CHANNEL_PATTERN),
  model: z.enum(AGENT_MODELS),
  rate: amount,
  parentId: idSchema.nullable(),
  enabled: z.boolean(),
  payee: z.string().trim().max(64),
  payoutMethod: z.enum(PAYOUT_METHODS),
  payoutAccount: z.string().trim().max(128),
  notes: z.string().trim().max(500),
};

export const agentToApi = (r: AgentRow) => {
  const { tenant: _t, ...rest } = isoTimestamps(r as unknown as Record<string, unknown>) as Record<
    string,
    unknown
  >;
  return { ...rest, rate: Number(r.rate) };
};

/** Checks the rules across fields: a share is a percentage, the parent exists and is not the agent or below it. */
async function checkAgent(tx: Tx, c: AppContext, body: Record<string, unknown>, current?: AgentRow) {
  const tenant = tenantOf(c);
  if (current && body.channel !== undefined && body.channel !== current.channel)
    throw invalidField('channel', 'agent.channelFixed');
  const model = (body.model ?? current?.model) as string;
  const rate = body.rate !== undefined ? Number(body.rate) : Number(current?.rate ?? 0);
  if (model === 'share' && rate > MAX_SHARE)
    throw invalidField('rate', 'agent.shareOver', { max: MAX_SHARE });
  const parentId = body.parentId as number | null | undefined;
  if (parentId === undefined || parentId === null) return;
  if (current && parentId === current.id) throw invalidField('parentId', 'agent.parentSelf');
  // Walk up from the parent: reaching this agent would make a cycle; a missing link is an unknown parent.
  let at: number | null = parentId;
  for (let depth = 0; at !== null; depth++) {
    const [row] = await tx
      .select({ id: agents.id, parentId: agents.parentId })
      .from(agents)
      .where(and(eq(agents.id, at), eq(agents.tenant, tenant)));
    if (!row) throw invalidField('parentId', 'field.notFound');
    if (current && row.parentId === current.id) throw invalidField('parentId', 'agent.parentCycle');
    if (depth > 64) throw invalidField('parentId', 'agent.parentCycle');
    at = row.parentId;
  }
}

/** Refuses to delete agents that were settled or have agents below them (40900, naming them). */
async function refuseIfUsed(tx: Tx, ids: number[]) {
  const settled = await tx
    .selectDistinct({ id: agentSettlements.agentId })
    .from(agentSettlements)
    .where(inArray(agentSettlements.agentId, ids));
  if (settled.length)
    throw new ApiError(Code.CONFLICT, 'agent.settledCannotDelete', {
      ids: settled.map((r) => r.id).join(', '),
    });
  // Sub-agents deleted in the same batch do not hold their parent back.
  const children = await tx
    .select({ id: agents.id, parentId: agents.parentId })
    .from(agents)
    .where(and(inArray(agents.parentId, ids), notInArray(agents.id, ids)));
  const parents = [...new Set(children.map((r) => r.parentId))];
  if (parents.length) throw new ApiError(Code.CONFLICT, 'agent.hasChildren', { ids: parents.join(', ') });
}

/** The domains bound to a channel code (the domains section keeps the binding in `domains.channel`). */
export async function boundDomains(db: Executor, tenant: number, channel: string) {
  return db
    .select({ id: domains.id, hostname: domains.hostname, status: domains.status, role: domains.role })
    .from(domains)
    .where(and(eq(domains.tenant, tenant), eq(domains.channel, channel)))
    .orderBy(domains.hostname);
}

const BoundDomain = z.object({ id: z.number(), hostname: z.string(), status: z.string(), role: z.string() });

const domainRoutes = {
  get: createRoute({
    method: 'get',
    path: '/{id}/domains',
    tags: ['agents'],
    security,
    summary: "The domains bound to the agent's channel code (traffic on them counts as the agent's)",
    middleware: can('agents.read'),
    request: { params: idParam },
    responses: jsonResponse(z.array(BoundDomain)),
  }),
  put: createRoute({
    method: 'put',
    path: '/{id}/domains',
    tags: ['agents'],
    security,
    summary:
      "Bind exactly these domains to the agent's channel (admin): others bound to it are freed; a domain bound to another channel is 40000 naming it",
    middleware: can('agents.edit'),
    request: {
      params: idParam,
      body: jsonBody(z.strictObject({ ids: z.array(idSchema).max(200) }).openapi('AgentDomains')),
    },
    responses: jsonResponse(z.array(BoundDomain)),
  }),
};

/** Agents: every operator reads them, admins write them; plus the domains bound to each. */
export function agentRoutes() {
  const app = crudResource({
    tag: 'agents',
    table: agents,
    schema: Agent,
    scope: { field: 'tenant', value: tenantOf },
    sorts: {
      id: agents.id,
      name: agents.name,
      channel: agents.channel,
      rate: agents.rate,
      createdAt: agents.createdAt,
    },
    defaultSort: 'id',
    filters: {
      q: z.string().trim().max(64).optional(),
      enabled: boolQuery.optional(),
      model: z.enum(AGENT_MODELS).optional(),
      parentId: intQuery().optional(),
      topLevel: boolQuery.optional(),
      /** Exactly these channel codes, comma-separated (a list of members names the agents of its page's codes). */
      channels: z.string().max(6_500).optional(),
    },
    where: (q) => [
      q.q
        ? or(ilike(agents.name, containsPattern(q.q)), ilike(agents.channel, containsPattern(q.q)))
        : undefined,
      q.enabled !== undefined ? eq(agents.enabled, q.enabled) : undefined,
      q.model ? eq(agents.model, q.model) : undefined,
      q.parentId !== undefined ? eq(agents.parentId, q.parentId) : undefined,
      q.topLevel ? isNull(agents.parentId) : undefined,
      q.channels !== undefined
        ? inArray(
            agents.channel,
            q.channels
              .split(',')
              .map((c) => c.trim())
              .filter(Boolean)
              .slice(0, 100)
              .concat(''), // an empty list matches nothing (no agent has the empty code)
          )
        : undefined,
    ],
    fields: agentFields,
    create: z
      .object({
        ...agentFields,
        contact: agentFields.contact.optional().default(''),
        model: agentFields.model.optional().default('share'),
        rate: agentFields.rate.optional().default(0),
        parentId: agentFields.parentId.optional().default(null),
        enabled: agentFields.enabled.optional().default(true),
        payee: agentFields.payee.optional().default(''),
        payoutMethod: agentFields.payoutMethod.optional().default('bank'),
        payoutAccount: agentFields.payoutAccount.optional().default(''),
        notes: agentFields.notes.optional().default(''),
      })
      .openapi('AgentCreate'),
    updateName: 'AgentUpdate',
    toApi: (r) => agentToApi(r as unknown as AgentRow),
    unique: 'channel',
    read: can('agents.read'),
    write: can('agents.edit'),
    security,
    beforeSave: async (tx, body, { c, current }) => {
      await checkAgent(tx, c, body, current as AgentRow | undefined);
      // A name taken is named on its field (the index answers for the channel, the resource's `unique`).
      if (body.name !== undefined) {
        const [clash] = await tx
          .select({ id: agents.id })
          .from(agents)
          .where(and(eq(agents.tenant, tenantOf(c)), eq(agents.name, body.name as string)));
        if (clash && clash.id !== (current as AgentRow | undefined)?.id) throw duplicate('name');
      }
      return body.rate !== undefined ? { ...body, rate: String(body.rate) } : body;
    },
    beforeDelete: (tx, row) => refuseIfUsed(tx, [row.id as number]),
    batch: {
      summary:
        'Enable, disable or delete agents (admin): all or nothing; a settled agent or a parent is 40900',
      actions: {
        ...switchActions(agents, 'enabled', ['enable', 'disable']),
        delete: async (tx, ids) => {
          await refuseIfUsed(tx, ids);
          // Agents deleted together may be each other's parents: free the links inside the batch first.
          await tx.update(agents).set({ parentId: null }).where(inArray(agents.id, ids));
          return (await tx.delete(agents).where(inArray(agents.id, ids)).returning()).length;
        },
      },
    },
  });

  const agentOf = async (db: Executor, c: AppContext, id: number) => {
    const [row] = await db
      .select()
      .from(agents)
      .where(and(eq(agents.id, id), eq(agents.tenant, tenantOf(c))));
    if (!row) throw notFound();
    return row;
  };

  app.openapi(domainRoutes.get, async (c) => {
    const { db } = c.get('deps');
    const agent = await agentOf(db, c, c.req.valid('param').id);
    return ok(c, await boundDomains(db, tenantOf(c), agent.channel));
  });

  app.openapi(auditedRoute(domainRoutes.put), async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const { ids } = c.req.valid('json');
    const agent = await agentOf(db, c, c.req.valid('param').id);
    await transaction(db, async (tx) => {
      const rows = ids.length
        ? await tx
            .select({ id: domains.id, hostname: domains.hostname, channel: domains.channel })
            .from(domains)
            .where(and(eq(domains.tenant, tenant), inArray(domains.id, ids)))
            .for('update')
        : [];
      const missing = ids.filter((i) => !rows.some((r) => r.id === i));
      if (missing.length) throw invalidField('ids', 'agent.domainsMissing', { ids: missing.join(', ') });
      const taken = rows.filter((r) => r.channel && r.channel !== agent.channel);
      if (taken.length)
        throw invalidField('ids', 'agent.domainsTaken', {
          hosts: taken.map((r) => `${r.hostname} (${r.channel})`).join(', '),
        });
      const now = clock.now();
      const freed = await tx
        .update(domains)
        .set({ channel: null, version: sql`${domains.version} + 1`, updatedAt: now })
        .where(
          and(
            eq(domains.tenant, tenant),
            eq(domains.channel, agent.channel),
            ids.length ? sql`${domains.id} not in ${ids}` : undefined,
          ),
        )
        .returning({ id: domains.id, hostname: domains.hostname, poolId: domains.poolId });
      const bound = ids.length
        ? await tx
            .update(domains)
            .set({ channel: agent.channel, version: sql`${domains.version} + 1`, updatedAt: now })
            .where(and(inArray(domains.id, ids), sql`${domains.channel} is distinct from ${agent.channel}`))
            .returning({ id: domains.id, hostname: domains.hostname, poolId: domains.poolId })
        : [];
      // The domains section's history: a changed channel is an edit of the domain, as when edited there (the row
      // carries the channel the domain had).
      const history: HistoryEntry[] = [
        ...freed.map((d) => ({
          ...d,
          was: agent.channel,
          from: `channel: ${agent.channel}`,
          to: 'channel: ',
        })),
        ...bound.map((d) => ({ ...d, was: null, from: 'channel: ', to: `channel: ${agent.channel}` })),
      ].map((d) => ({
        domainId: d.id,
        hostname: d.hostname,
        poolId: d.poolId,
        channel: d.was,
        action: 'edit' as const,
        from: d.from,
        to: d.to,
        reason: '',
      }));
      if (history.length) {
        await recordHistory(tx, tenant, actorOf(c), now, history);
        await bumpResolveVersion(tx, tenant);
      }
      await auditMany(tx, c, {
        resource: 'agents',
        action: 'bind-domains',
        recordId: agent.id,
        ids: [...bound, ...freed].map((d) => d.id),
        changed: bound.length + freed.length,
        extra: {
          channel: agent.channel,
          bound: bound.map((d) => d.hostname),
          freed: freed.map((d) => d.hostname),
        },
      });
    });
    return ok(c, await boundDomains(db, tenant, agent.channel));
  });

  return app;
}

/** How many agents a tenant has (the bench and the seed check it). */
export async function agentCount(db: Executor, tenant: number) {
  const [row] = await db.select({ n: countOf }).from(agents).where(eq(agents.tenant, tenant));
  return Number(row?.n ?? 0);
}
