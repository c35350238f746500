import { createRoute as createOpenApiRoute, type RouteConfig } from '@hono/zod-openapi';
import { permissionOf } from './auth';

/**
 * `createRoute` of @hono/zod-openapi that also writes the permission its guard checks (`can(...)`) into the
 * document as `x-permission`: the document says who may call each route, and tests/api/permissions.test.ts walks
 * it to check every mutating route refuses an operator without it.
 */
export function createRoute<R extends RouteConfig>(route: R): R {
  const permission = permissionOf(route.middleware);
  return createOpenApiRoute(permission ? { ...route, 'x-permission': permission } : route);
}
