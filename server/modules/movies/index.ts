import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { columnRoutes } from './column-routes';
import { movieRoutes } from './movie-routes';
import { sourceRoutes } from './source-routes';
import { tagRoutes } from './tag-routes';

/**
 * Movies (SPEC.md §2 /movie): the content items with their review and publishing rules, and the columns, tags
 * and video sources they are filed under and played from. Reads are for every operator; review, publishing and
 * editing items too (that is the content team's daily work); deleting items and managing columns, tags and
 * sources are admin-only.
 */
export default function moviesModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', movieRoutes());
  app.route('/', columnRoutes());
  app.route('/', tagRoutes());
  app.route('/', sourceRoutes());
  return app;
}
