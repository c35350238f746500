import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import type { AppEnv } from '../core/context';
import { jsonResponse, ok } from '../core/envelope';

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness: the database answers',
  responses: jsonResponse(z.object({ status: z.literal('ok'), time: z.string() })),
});

export default function healthModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(health, async (c) => {
    await c.get('deps').db.execute(sql`select 1`);
    return ok(c, { status: 'ok' as const, time: c.get('deps').clock.now().toISOString() });
  });
  return app;
}
