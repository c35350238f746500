import type { Executor } from '../db/types';
import type { Authenticate, Module } from './context';

/**
 * Counts how much of a module's data carries each platform key (the settings screen asks before a platform is
 * removed): joined by declaring `platformUsage` in the module, answered by `GET /app/admin/setting/platform-usage`.
 */
export interface PlatformUsage {
  /** The field of the answer (e.g. `movies`). */
  field: string;
  count: (db: Executor, tenant: number, keys: number[]) => Promise<Map<number, number>>;
}

/**
 * What a server module is, declared in its own folder (`server/modules/<name>/index.ts`) and listed once in
 * `server/modules/index.ts`. The app mounts its sub-apps with `app.route('/app' + prefix, subApp)`, so a route
 * names only its path under its module's prefix; the registries (platform usage, …) are read from these
 * declarations, so a new section edits no other module.
 */
export interface ServerModule {
  /** The folder's name: its API path segment (README "Naming"). */
  name: string;
  /** Sub-apps by the prefix under `/app` they are mounted at. A factory gets every module (for registries). */
  mount: Record<string, (modules: readonly ServerModule[]) => Module>;
  /** The operators module: how a session token becomes an operator (core/auth.ts guards use it). */
  authenticate?: Authenticate;
  /** Its part of the platform usage counts. */
  platformUsage?: PlatformUsage;
}

export const defineModule = (m: ServerModule): ServerModule => m;
