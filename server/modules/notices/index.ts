import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { noticeRoutes } from './routes';

/** Notices (SPEC.md §2 /setting/notices): marquee and pop-up notices of the content site. */
export default function noticesModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', noticeRoutes());
  return app;
}
