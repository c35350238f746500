import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import { audit, auditedRoute, diff } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { findById, idParam, listPage, listQuery } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { conflict } from '../../core/errors';
import type { ServerModule } from '../../core/module';
import { createRoute } from '../../core/route';
import {
  dateQuery,
  intQuery,
  rangeEnd,
  rangeStart,
  rejectUnknownQuery,
  transaction,
} from '../../core/shared';
import { listTotalShape } from '../../core/totals';
import { AUDIT_RETENTION_DEFAULT, readAuditSettings } from './purge';
import { auditLog, auditSettings } from './schema';

const tags = ['audit'];

export const AuditEntry = z
  .object({
    id: z.number(),
    at: z.string(),
    operatorId: z.number().nullable(),
    operatorAccount: z.string(),
    address: z.string(),
    requestId: z.string(),
    section: z.string(),
    resource: z.string(),
    action: z.string(),
    recordId: z.string().nullable(),
    route: z.string(),
    changes: z.record(z.string(), z.unknown()),
  })
  .openapi('AuditEntry');

const ListQuery = listQuery(['at'], {
  operatorId: intQuery().optional(),
  section: z.string().trim().max(64).optional(),
  recordId: z.string().trim().max(64).optional(),
  from: dateQuery.optional(),
  to: dateQuery.optional(),
});

const AuditSettings = z.object({ retentionDays: z.number(), version: z.number() }).openapi('AuditSettings');

/** Days the log keeps: at least a week (an incident is noticed late), at most ten years. */
const retentionDays = z.number().int().min(7).max(3650);

const toApi = (r: typeof auditLog.$inferSelect) => ({ ...r, at: r.at.toISOString() });

/** `/app/admin/setting/audit`: the log with its filters, one entry, the sections, and the retention. */
export function auditRoutes(modules: readonly ServerModule[]) {
  const app = new OpenAPIHono<AppEnv>();
  const base = { tags, security, middleware: can('audit.settings') };

  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      path: '/',
      summary:
        'The audit log, newest first: by operator, section, record (a batch holding it too) and period',
      request: { query: ListQuery },
      responses: jsonResponse(z.object({ list: z.array(AuditEntry), ...listTotalShape })),
    }),
    async (c) => {
      rejectUnknownQuery(c, ListQuery);
      const q = c.req.valid('query');
      const where: (SQL | undefined)[] = [
        q.operatorId ? eq(auditLog.operatorId, q.operatorId) : undefined,
        q.section ? eq(auditLog.section, q.section) : undefined,
        q.from ? gte(auditLog.at, rangeStart(q.from)) : undefined,
        q.to ? lt(auditLog.at, rangeEnd(q.to)) : undefined,
      ];
      if (q.recordId)
        where.push(
          /^\d{1,9}$/.test(q.recordId)
            ? or(
                eq(auditLog.recordId, q.recordId),
                sql`${auditLog.changes}->'ids' @> ${JSON.stringify([Number(q.recordId)])}::jsonb`,
              )
            : eq(auditLog.recordId, q.recordId),
        );
      const page = await listPage<typeof auditLog.$inferSelect>(c.get('deps').db, {
        table: auditLog,
        where: and(...where),
        orderBy: auditLog.at,
        query: { ...q, order: q.sort ? q.order : 'desc' },
      });
      return ok(c, { list: page.list.map(toApi), total: page.total, totalExact: page.totalExact });
    },
  );

  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      path: '/sections',
      summary: 'The sections an entry may name (the server modules), for the filter',
      responses: jsonResponse(z.array(z.string())),
    }),
    (c) =>
      ok(
        c,
        modules.map((m) => m.name),
      ),
  );

  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      path: '/settings',
      summary: 'How many days the log keeps entries',
      responses: jsonResponse(AuditSettings),
    }),
    async (c) => {
      const s = await readAuditSettings(c.get('deps').db, c.get('deps').config.defaultTenant);
      return ok(c, { retentionDays: s.retentionDays, version: s.version });
    },
  );

  app.openapi(
    createRoute(
      auditedRoute({
        ...base,
        method: 'put',
        path: '/settings',
        summary:
          'Set how many days the log keeps entries (7 to 3650; a stale version is 40900; the Node server purges older ones)',
        request: {
          body: jsonBody(
            z
              .object({ retentionDays, version: z.number().int().min(0).max(2_147_483_647) })
              .openapi('AuditSettingsBody'),
          ),
        },
        responses: jsonResponse(AuditSettings),
      }),
    ),
    async (c) => {
      const { db, clock, config } = c.get('deps');
      const body = c.req.valid('json');
      const tenant = config.defaultTenant;
      const saved = await transaction(db, async (tx) => {
        const [row] = await tx
          .select()
          .from(auditSettings)
          .where(eq(auditSettings.tenant, tenant))
          .for('update');
        if ((row?.version ?? 0) !== body.version) throw conflict();
        const before = { retentionDays: row?.retentionDays ?? AUDIT_RETENTION_DEFAULT };
        const values = {
          retentionDays: body.retentionDays,
          version: body.version + 1,
          updatedAt: clock.now(),
        };
        if (row) await tx.update(auditSettings).set(values).where(eq(auditSettings.tenant, tenant));
        else await tx.insert(auditSettings).values({ tenant, ...values });
        await audit(tx, c, {
          resource: 'settings',
          action: 'update',
          recordId: tenant,
          changes: diff(before, { retentionDays: body.retentionDays }),
        });
        return values;
      });
      return ok(c, { retentionDays: saved.retentionDays, version: saved.version });
    },
  );

  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      path: '/{id}',
      summary: 'One entry of the audit log',
      request: { params: idParam },
      responses: jsonResponse(AuditEntry),
    }),
    async (c) => {
      const row = await findById<typeof auditLog.$inferSelect>(
        c.get('deps').db,
        auditLog,
        c.req.valid('param').id,
      );
      return ok(c, toApi(row));
    },
  );

  return app;
}
