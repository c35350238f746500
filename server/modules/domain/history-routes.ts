import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { HISTORY_ACTIONS } from '../../../common/domain';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { type ListParams, listPage, listQuery } from '../../core/crud';
import { jsonResponse, ok } from '../../core/envelope';
import { createRoute } from '../../core/route';
import {
  containsPattern,
  dateQuery,
  intQuery,
  iso,
  rangeEnd,
  rangeStart,
  rejectUnknownQuery,
} from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { listTotalShape } from '../../core/totals';
import { HEALTH_ACTOR, toUnicode } from './model';
import { domainHistory } from './schema';

const HistoryRow = z
  .object({
    id: z.number(),
    at: z.string(),
    domainId: z.number().nullable(),
    hostname: z.string(),
    unicode: z.string(),
    poolId: z.number().nullable(),
    channel: z.string().nullable(),
    action: z.enum(HISTORY_ACTIONS),
    from: z.string(),
    to: z.string(),
    actorId: z.number().nullable(),
    actor: z.string(),
    reason: z.string(),
  })
  .openapi('DomainHistory');

const sorts = { at: domainHistory.at, id: domainHistory.id, hostname: domainHistory.hostname } as const;
const ListQuery = listQuery(Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]], {
  q: z.string().trim().max(253).optional(),
  domainId: intQuery().optional(),
  poolId: intQuery().optional(),
  channel: z.string().trim().min(1).max(64).optional(),
  action: z.enum(HISTORY_ACTIONS).optional(),
  by: z
    .enum(['operator', 'checker'])
    .optional()
    .openapi({ description: 'Who: an operator or the health checker' }),
  actor: z.string().trim().min(1).max(64).optional(),
  from: dateQuery.optional(),
  to: dateQuery.optional(),
});

const listRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['domain history'],
  security,
  summary:
    'Every change of a domain (who or what, from, to, why), newest first unless told; filters, server paging',
  middleware: can('domain.read'),
  request: { query: ListQuery },
  responses: jsonResponse(z.object({ list: z.array(HistoryRow), ...listTotalShape })),
});

/** The history (`/domain/history`): read-only, written by every change of a domain. */
export function historyRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(listRoute, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query') as z.infer<typeof ListQuery> & ListParams;
    const h = domainHistory;
    const where = and(
      eq(h.tenant, tenantOf(c)),
      q.q ? sql`${h.hostname} like ${containsPattern(q.q.toLowerCase())}` : undefined,
      q.domainId ? eq(h.domainId, q.domainId) : undefined,
      q.poolId ? eq(h.poolId, q.poolId) : undefined,
      q.channel ? eq(h.channel, q.channel) : undefined,
      q.action ? eq(h.action, q.action) : undefined,
      q.by === 'checker' ? isNull(h.actorId) : q.by === 'operator' ? isNotNull(h.actorId) : undefined,
      q.actor ? eq(h.actor, q.actor) : undefined,
      q.from ? gte(h.at, rangeStart(q.from)) : undefined,
      q.to ? lt(h.at, rangeEnd(q.to)) : undefined,
    );
    const page = await listPage<typeof h.$inferSelect>(c.get('deps').db, {
      table: h,
      where,
      orderBy: sorts[(q.sort as keyof typeof sorts) ?? 'at'],
      query: { ...q, order: c.req.query('order') ? q.order : 'desc' },
    });
    return ok(c, {
      list: page.list.map((r) => ({
        id: r.id,
        at: iso(r.at) as string,
        domainId: r.domainId,
        hostname: r.hostname,
        unicode: toUnicode(r.hostname),
        poolId: r.poolId,
        channel: r.channel,
        action: r.action,
        from: r.fromValue,
        to: r.toValue,
        actorId: r.actorId,
        actor: r.actor === HEALTH_ACTOR ? HEALTH_ACTOR : r.actor,
        reason: r.reason,
      })),
      total: page.total,
      totalExact: page.totalExact,
    });
  });
  return app;
}
