import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { promotionRoutes } from './routes';

/** Promotion apps (SPEC.md §2 /setting/promotionapp): the browsers and apps the content site promotes. */
export default function promotionModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', promotionRoutes());
  return app;
}
export { appsForPlatform, appsPerPlatform } from './routes';
