import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { audit, auditedRoute, diff } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { conflict } from '../../core/errors';
import { createRoute } from '../../core/route';
import { iso, transaction, version } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { readSettings } from './model';
import { domainSettings } from './schema';

const fields = {
  checkEnabled: z.boolean(),
  checkIntervalSeconds: z.number().int().min(30).max(86_400),
  checkTimeoutMs: z.number().int().min(500).max(60_000),
  failThreshold: z.number().int().min(1).max(20),
  autoReplace: z.boolean(),
  expiryWarnDays: z.number().int().min(1).max(365),
};

const Settings = z
  .object({ ...fields, lastCheckAt: z.string().nullable(), version: z.number(), updatedAt: z.string() })
  .openapi('DomainSettings');
const UpdateBody = z
  .object({ ...fields, version })
  .strict()
  .openapi('DomainSettingsUpdate');

const toApi = (r: typeof domainSettings.$inferSelect) => ({
  checkEnabled: r.checkEnabled,
  checkIntervalSeconds: r.checkIntervalSeconds,
  checkTimeoutMs: r.checkTimeoutMs,
  failThreshold: r.failThreshold,
  autoReplace: r.autoReplace,
  expiryWarnDays: r.expiryWarnDays,
  lastCheckAt: iso(r.lastCheckAt),
  version: r.version,
  updatedAt: iso(r.updatedAt) as string,
});

const base = { tags: ['domain settings'], security, path: '/' };

/** The health checker's and warnings' settings (`/domain/setting`): every operator reads, admins save. */
export function settingRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      summary: 'The domain settings',
      middleware: can('domain.read'),
      responses: jsonResponse(Settings),
    }),
    async (c) => ok(c, toApi(await readSettings(c.get('deps').db, tenantOf(c)))),
  );
  app.openapi(
    createRoute(
      auditedRoute({
        ...base,
        method: 'put',
        summary:
          'Save whether the health checker runs, its interval and timeout, the failures that block a domain, auto-replacement and the expiry warning horizon (admin; a stale version is 40900)',
        middleware: can('domain.settings'),
        request: { body: jsonBody(UpdateBody) },
        responses: jsonResponse(Settings),
      }),
    ),
    async (c) => {
      const { version: v, ...values } = c.req.valid('json');
      const { db, clock } = c.get('deps');
      const tenant = tenantOf(c);
      const row = await transaction(db, async (tx) => {
        const before = await readSettings(tx, tenant);
        const [r] = await tx
          .update(domainSettings)
          .set({ ...values, version: sql`${domainSettings.version} + 1`, updatedAt: clock.now() })
          .where(and(eq(domainSettings.tenant, tenant), eq(domainSettings.version, v)))
          .returning();
        if (!r) throw conflict();
        await audit(tx, c, {
          resource: 'settings',
          action: 'update',
          recordId: tenant,
          changes: diff(toApi(before), toApi(r)),
        });
        return r;
      });
      return ok(c, toApi(row));
    },
  );
  return app;
}
