/**
 * Permissions finer than admin/user: a permission is `<section>.<action>`; a role is a named set of them.
 * Each section declares its own actions once, in `common/permissions/<section>.ts`: the server module guards its
 * routes with them (`can(...)`, server/core/auth.ts) and the SPA section reads the same declaration for its menu,
 * its route guards and its read-only screens. No list of every permission is kept by hand anywhere.
 */
export const ACTIONS = ['read', 'edit', 'review', 'batch', 'settings'] as const;
export type Action = (typeof ACTIONS)[number];
export type Permission = `${string}.${Action}`;

/** The two built-in roles: `admin` holds every permission, `user` what each section gives it (`user` below). */
export const BUILTIN_ROLES = ['admin', 'user'] as const;
export type BuiltinRole = (typeof BUILTIN_ROLES)[number];

export interface SectionPermissions<S extends string = string, A extends Action = Action> {
  section: S;
  /** The actions that mean something in the section, in ACTIONS' order. */
  actions: readonly A[];
  /** What the built-in `user` role may do here: exactly what an operator without the admin role could before. */
  user: readonly A[];
}

/** A section's declaration: its actions and those of them the built-in `user` role holds. */
export function sectionPermissions<S extends string, A extends Action>(
  section: S,
  actions: readonly A[],
  user: readonly NoInfer<A>[],
): SectionPermissions<S, A> {
  const ordered = ACTIONS.filter((a): a is A => (actions as readonly string[]).includes(a));
  return { section, actions: ordered, user: ordered.filter((a) => user.includes(a)) };
}

/** Every permission the sections declare, and those of the built-in `user`. */
export function catalogOf(sections: readonly SectionPermissions[]) {
  const all: Permission[] = [];
  const user: Permission[] = [];
  for (const s of sections)
    for (const a of s.actions) {
      all.push(`${s.section}.${a}`);
      if (s.user.includes(a)) user.push(`${s.section}.${a}`);
    }
  return { all, user };
}

/** The permissions a role holds: built-ins from the declarations, custom roles as saved (unknown ones dropped). */
export function permissionsOf(
  role: { name: string; builtin: boolean; permissions: readonly string[] },
  catalog: { all: readonly string[]; user: readonly string[] },
): Permission[] {
  if (role.builtin) return [...(role.name === 'admin' ? catalog.all : catalog.user)] as Permission[];
  const known = new Set(catalog.all);
  return role.permissions.filter((p) => known.has(p)) as Permission[];
}
