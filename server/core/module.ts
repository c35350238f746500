import type { z } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { SectionPermissions } from '../../common/permissions';
import type { Config } from '../config';
import type { Db, Executor } from '../db/types';
import type { AppEnv, Authenticate, Module } from './context';

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
 * A module's part of the public site answer (`GET /app/site/config`): the field it fills, its OpenAPI schema, and
 * how it is read for a tenant's platform at `now` (the tenant's settings are read once for every part). A module
 * that joins bumps the site version (`bumpSiteVersion` of the site module) in the transaction of every write to
 * what its part answers, so the answer's ETag changes with it.
 */
export interface SitePart {
  field: string;
  schema: z.ZodType;
  read: (
    db: Executor,
    at: { tenant: number; platform: number; now: Date; settings: Record<string, unknown> },
  ) => Promise<unknown>;
}

/**
 * A tenant's settings and its platforms (key → name), as the public site answer reads them once for every part. The
 * settings module declares it; the site module asks the declarations for it, so neither imports the other.
 */
export type TenantSettings = (
  db: Executor,
  tenant: number,
) => Promise<{ settings: Record<string, unknown>; platforms: Map<number, string> }>;

/** What a member's ban changed in another module: kept with the ban so that its undo puts back exactly that. */
export interface BanEffects {
  comments: { id: number; status: string }[];
  guestbook: { id: number; status: string }[];
  blacklist: { module: string; entry: string }[];
}

/**
 * What banning a member does beyond the member's row (the comments module: hide what they posted, blacklist their
 * address) and its exact undo. Declared by that module and called by the members module in the ban's transaction,
 * so the members module does not import the one whose rows point at members.
 */
export interface MemberBan {
  ban: (
    tx: Executor,
    at: { tenant: number; userId: number; address: string | undefined; now: Date },
  ) => Promise<BanEffects>;
  undo: (tx: Executor, at: { tenant: number; effects: BanEffects; now: Date }) => Promise<number>;
}

/** What a module's seeder gets (server/seed: demo mode, `SEED=n`, tests): deterministic by `seed`. */
export interface SeedContext {
  seed: number;
  now: Date;
  config: Config;
  /** The first admin's id (a reviewer, an author of changes). */
  reviewer: number | null;
}

/**
 * What a server module is, declared in its own folder (`server/modules/<name>/index.ts`) and listed once in
 * `server/modules/index.ts`. The app mounts its sub-apps with `app.route('/app' + prefix, subApp)`, so a route
 * names only its path under its module's prefix; the registries (platform usage, …) are read from these
 * declarations, so a new section edits no other module.
 */
export interface ServerModule {
  /** The folder's name (or the file's, for a one-file module): checked by `discoverModules`. */
  name: string;
  /**
   * Where it stands among the modules: the app mounts, the registries list and the seed generator runs them in this
   * order (a section's seed data may need another's: comments after members). Required of a discovered module.
   */
  order?: number;
  /** Sub-apps by the prefix under `/app` they are mounted at. A factory gets every module (for registries). */
  mount: Record<string, (modules: readonly ServerModule[]) => Module>;
  /**
   * Sub-apps at a path of the server's root, beside `/app`: paths other programs know and that are no part of the
   * envelope API or its document (the image host at `/img`, MacCMS's provide API at `/api.php/provide`). The `/app`
   * guards (body limit, input guard, no-store) do not run for them.
   */
  rootMount?: Record<string, () => Hono<AppEnv>>;
  /**
   * The sections whose permissions its routes check (`common/permissions/<section>.ts`): the built-in roles and the
   * roles screen's grid are made of these declarations.
   */
  permissions?: readonly SectionPermissions[];
  /** The operators module: how a session token becomes an operator (core/auth.ts guards use it). */
  authenticate?: Authenticate;
  /** Its part of the platform usage counts. */
  platformUsage?: PlatformUsage;
  /** Its part of the public site answer. */
  site?: SitePart;
  /** The settings module: a tenant's settings and platforms, for the public site answer. */
  tenantSettings?: TenantSettings;
  /** The comments module: what a member's ban hides and blacklists, and its undo. */
  memberBan?: MemberBan;
  /** Its sample data: run by the seed generator after the sections it has always seeded, in the list's order. */
  seed?: (db: Db, at: SeedContext) => Promise<void>;
}

export const defineModule = (m: ServerModule): ServerModule => m;

/**
 * The modules found by `import.meta.glob` (path → its exports), in their `order`: each default-exports its
 * declaration, named like its folder (or its file) so that one name stands for the module everywhere.
 * `server/modules/index.ts` passes every `modules/<name>/index.ts` and `modules/<name>.ts`; a test passes its own.
 */
export function discoverModules(found: Record<string, { default?: ServerModule }>): ServerModule[] {
  const list = Object.entries(found).map(([path, exports]) => {
    const m = exports.default;
    const folder = path.replace(/\/index\.ts$|\.ts$/, '').replace(/^.*\//, '');
    if (!m || typeof m.name !== 'string')
      throw new Error(`${path}: no module declaration as its default export`);
    if (m.name !== folder)
      throw new Error(`${path}: the module is named "${m.name}", its folder "${folder}"`);
    if (typeof m.order !== 'number') throw new Error(`${path}: the module "${m.name}" has no order`);
    return m;
  });
  const orders = new Map<number, string>();
  for (const m of list) {
    const other = orders.get(m.order!);
    if (other) throw new Error(`The modules "${other}" and "${m.name}" have the same order ${m.order}`);
    orders.set(m.order!, m.name);
  }
  return list.sort((a, b) => a.order! - b.order!);
}
