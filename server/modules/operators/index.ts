import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { authRoutes } from './auth-routes';
import { operatorRoutes } from './routes';

/** Operators: accounts, sessions, login throttling, and their management (admin only). */
export default function operatorsModule() {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', authRoutes());
  app.route('/', operatorRoutes());
  return app;
}
export { ensureFirstAdmin } from './bootstrap';
export { asAdmin, asAnyOperator, requireAdmin, requireSession, security } from './guard';
