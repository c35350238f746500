import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Permission } from '../../common/permissions';
import type { AppContext, AppEnv } from './context';
import { forbidden } from './errors';

/**
 * Every `/app/admin/*` route but login needs a live session: sets `operator`. The session is resolved by the
 * `authenticate` the app set from the module that provides it (the operators module): core knows no section.
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  c.set('operator', await c.get('authenticate')(c, c.req.header('admin-token')));
  await next();
});

/** Whether the request's operator holds `permission` (through their role, as read with the session). */
export const hasPermission = (c: AppContext, permission: Permission): boolean =>
  c.get('operator').permissions.has(permission);

/** Refuses (40300) an operator without `permission`: for a rule inside a route (a batch action, a tenant). */
export function requirePermission(c: AppContext, permission: Permission): void {
  if (!hasPermission(c, permission)) throw forbidden();
}

/** A middleware that names the permission it checks: `createRoute` (core/route.ts) shows it as `x-permission`. */
export type PermissionCheck = MiddlewareHandler<AppEnv> & { permission: Permission };

/** A route's rule: the middlewares it runs first. */
export type Guard = MiddlewareHandler<AppEnv>[];

/**
 * The guard of a route that needs `permission` (`can(moviePermissions.perm.review)`): a live session whose role
 * holds it, whatever the UI shows. The role is read with the session on every request, so a changed role counts
 * from the next request on.
 */
export function can(permission: Permission): Guard {
  const check = createMiddleware<AppEnv>(async (c, next) => {
    requirePermission(c, permission);
    await next();
  }) as PermissionCheck;
  check.permission = permission;
  return [requireSession, check];
}

/** The permission a route's middlewares check, if any (the last one named wins). */
export function permissionOf(middleware: unknown): Permission | undefined {
  const list = Array.isArray(middleware) ? middleware : middleware ? [middleware] : [];
  let found: Permission | undefined;
  for (const m of list)
    if (typeof m === 'function' && 'permission' in m) found = (m as PermissionCheck).permission;
  return found;
}

/** Routes for every operator whatever their role (the session's own routes, names, shared settings reads). */
export const asAnyOperator: Guard = [requireSession];
/** The OpenAPI security of a route behind a guard. */
export const security = [{ AdminToken: [] }];
