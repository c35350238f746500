import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { jsonResponse, ok } from '../../core/envelope';
import { tenantOf } from '../../core/tenant';
import { moviesPerPlatform } from '../movies/platform-usage';
import { noticesPerPlatform } from '../notices/model';
import { asAdmin, security } from '../operators';
import { appsPerPlatform } from '../promotion';
import { snippetsPerPlatform } from '../statistics-settings';

const Usage = z
  .object({
    key: z.number(),
    movies: z.number(),
    notices: z.number(),
    apps: z.number(),
    snippets: z.number(),
    total: z.number(),
  })
  .openapi('PlatformUsage');

const route = createRoute({
  method: 'get',
  path: '/admin/setting/platform-usage',
  tags: ['system'],
  security,
  summary:
    'How much uses each platform key (movies, notices, promotion apps, statistics snippets): asked before a platform is removed (admin)',
  middleware: asAdmin,
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

/** The settings screen asks this before it saves a platform list with platforms removed. */
export function platformUsageRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const tenant = tenantOf(c);
    const { keys } = c.req.valid('query');
    const [movies, notices, apps, snippets] = await Promise.all([
      moviesPerPlatform(db, keys),
      noticesPerPlatform(db, tenant, keys),
      appsPerPlatform(db, tenant, keys),
      snippetsPerPlatform(db, tenant, keys),
    ]);
    const usage = keys.map((key) => {
      const u = {
        key,
        movies: movies.get(key) ?? 0,
        notices: notices.get(key) ?? 0,
        apps: apps.get(key) ?? 0,
        snippets: snippets.get(key) ?? 0,
      };
      return { ...u, total: u.movies + u.notices + u.apps + u.snippets };
    });
    return ok(c, { usage });
  });
  return app;
}
