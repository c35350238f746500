import { OpenAPIHono, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import type { AppEnv } from '../core/context';
import { jsonResponse, ok } from '../core/envelope';
import { defineModule } from '../core/module';
import { createRoute } from '../core/route';

const health = createRoute({
  method: 'get',
  path: '/',
  tags: ['system'],
  summary: 'Liveness: the database answers',
  responses: jsonResponse(z.object({ status: z.literal('ok'), time: z.string() })),
});

function healthRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(health, async (c) => {
    await c.get('deps').db.execute(sql`select 1`);
    return ok(c, { status: 'ok' as const, time: c.get('deps').clock.now().toISOString() });
  });
  return app;
}

/** Liveness (API /app/health). */
export default defineModule({ name: 'health', order: 10, mount: { '/health': healthRoutes } });
