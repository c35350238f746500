import { OpenAPIHono, z } from '@hono/zod-openapi';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { jsonResponse, ok } from '../../core/envelope';
import type { PlatformUsage } from '../../core/module';
import { createRoute } from '../../core/route';
import { tenantOf } from '../../core/tenant';

/**
 * The settings screen asks this before it saves a platform list with platforms removed. Each module that files
 * data under platform keys joins with `platformUsage` in its own index (movies, notices, apps, snippets…).
 */
export function platformUsageRoutes(counters: readonly PlatformUsage[]) {
  const Usage = z
    .object({
      key: z.number(),
      ...Object.fromEntries(counters.map((u) => [u.field, z.number()])),
      total: z.number(),
    })
    .openapi('PlatformUsage');
  const route = createRoute({
    method: 'get',
    path: '/',
    tags: ['system'],
    security,
    summary: `How much uses each platform key (${counters.map((u) => u.field).join(', ')}): asked before a platform is removed (admin)`,
    middleware: can('sys.settings'),
    request: {
      query: z.object({
        keys: z
          .string()
          .regex(/^\d{1,4}(,\d{1,4}){0,49}$/)
          .transform((s) => [...new Set(s.split(',').map(Number))])
          .openapi({ example: '4,5' }),
      }),
    },
    responses: jsonResponse(z.object({ usage: z.array(Usage) })),
  });

  const app = new OpenAPIHono<AppEnv>();
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const tenant = tenantOf(c);
    const { keys } = c.req.valid('query');
    const counts = await Promise.all(counters.map((u) => u.count(db, tenant, keys)));
    const usage = keys.map((key) => {
      const figures = counters.map((u, i) => [u.field, counts[i].get(key) ?? 0] as const);
      return { key, ...Object.fromEntries(figures), total: figures.reduce((sum, [, n]) => sum + n, 0) };
    });
    return ok(c, { usage });
  });
  return app;
}
