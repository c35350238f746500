import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context';
import { forbidden } from './errors';

/**
 * Every `/app/admin/*` route but login needs a live session: sets `operator`. The session is resolved by the
 * `authenticate` the app set from the module that provides it (the operators module): core knows no section.
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  c.set('operator', await c.get('authenticate')(c, c.req.header('admin-token')));
  await next();
});

/** Admin-only routes: the server enforces the role, whatever the UI shows. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('operator').role !== 'admin') throw forbidden();
  await next();
});

/** A route's role rule: the middlewares it runs first. */
export type Guard = MiddlewareHandler<AppEnv>[];

export const asAnyOperator: Guard = [requireSession];
export const asAdmin: Guard = [requireSession, requireAdmin];
/** The OpenAPI security of a route behind a guard. */
export const security = [{ AdminToken: [] }];
