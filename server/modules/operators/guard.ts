import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../core/context';
import { forbidden } from '../../core/errors';
import { resolveSession } from './sessions';

/** Every `/app/admin/*` route but login needs a live session: sets `operator`. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const { db, clock, config } = c.get('deps');
  c.set('operator', await resolveSession(db, c.req.header('admin-token'), clock.now(), config.sessionIdleMs));
  await next();
});

/** Admin-only routes: the server enforces the role, whatever the UI shows. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('operator').role !== 'admin') throw forbidden();
  await next();
});

export const asAnyOperator = [requireSession];
export const asAdmin = [requireSession, requireAdmin];
export const security = [{ AdminToken: [] }];
