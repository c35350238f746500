import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { actressRoutes } from './routes';

/**
 * Actresses (SPEC.md §2 /actress): performer profiles and their links to movies (`movie_actresses`, declared by
 * the movies module). Every operator reads, creates, edits, shows/hides and links; deleting is admin-only and,
 * with linked movies, needs `force` (the links go in the same transaction).
 */
export default function actressesModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', actressRoutes());
  return app;
}
