import { z } from '@hono/zod-openapi';
import { eq, ilike } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { permissionsOf } from '../../../common/permissions';
import { can, security } from '../../core/auth';
import type { AppContext } from '../../core/context';
import { ApiError, invalidField } from '../../core/errors';
import { crudResource } from '../../core/resource';
import { containsPattern, countOf, iso } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Tx } from '../../db/types';
import { operators, roles } from './schema';

type RoleRow = typeof roles.$inferSelect;

export const Role = z
  .object({
    id: z.number(),
    name: z.string(),
    /** A built-in's are derived from the sections' declarations; a custom role's as saved. */
    permissions: z.array(z.string()),
    builtin: z.boolean(),
    version: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Role');

const fields = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[\p{L}\p{N}_.-]+$/u),
  permissions: z.array(z.string().max(64)).max(200),
};

const roleToApi = (r: RoleRow, c: AppContext) => ({
  id: r.id,
  name: r.name,
  permissions: permissionsOf(r, c.get('permissions')),
  builtin: r.builtin,
  version: r.version,
  createdAt: iso(r.createdAt) as string,
  updatedAt: iso(r.updatedAt) as string,
});

/** Built-ins are not a row anyone edits: their meaning is the sections' declarations. */
const refuseBuiltin = (row: { builtin?: unknown } | undefined) => {
  if (row?.builtin) throw new ApiError(Code.FORBIDDEN, 'role.builtin');
};

/** Only declared permissions, once each, in the catalog's order. */
function checkedPermissions(c: AppContext, permissions: string[]) {
  const all = c.get('permissions').all;
  const unknown = permissions.find((p) => !all.includes(p));
  if (unknown !== undefined)
    throw invalidField('permissions', 'role.unknownPermission', { permission: unknown });
  const wanted = new Set(permissions);
  return all.filter((p) => wanted.has(p));
}

/** Operators holding the role: a role in use cannot be deleted (40900 naming how many). */
async function assertUnused(tx: Tx, name: string) {
  const [{ n }] = await tx.select({ n: countOf }).from(operators).where(eq(operators.role, name));
  if (n > 0) throw new ApiError(Code.CONFLICT, 'role.inUse', { count: n }, { operators: n });
}

/**
 * Roles (`/app/admin/setting/roles`): named sets of the permissions the sections declare, given to
 * operators by name. The built-ins `admin` and `user` are listed with what they hold and cannot be changed; a
 * custom role cannot be deleted while operators hold it. Admins only (`roles.settings`); audited by the factory.
 */
export const roleRoutes = () =>
  crudResource({
    tag: 'roles',
    table: roles,
    schema: Role,
    sorts: { id: roles.id, name: roles.name, updatedAt: roles.updatedAt },
    defaultSort: 'id',
    filters: {
      q: z.string().trim().max(32).optional(),
      builtin: z.enum(['true', 'false']).optional(),
    },
    where: (q) => [
      q.q ? ilike(roles.name, containsPattern(q.q)) : undefined,
      q.builtin ? eq(roles.builtin, q.builtin === 'true') : undefined,
    ],
    fields,
    create: z
      .object({ ...fields, permissions: fields.permissions.optional().default([]) })
      .openapi('RoleCreate'),
    updateName: 'RoleUpdate',
    toApi: (r, c) => roleToApi(r as RoleRow, c),
    read: can('roles.settings'),
    write: can('roles.settings'),
    security,
    unique: 'name',
    beforeSave: async (_tx, body, { c, current }) => {
      refuseBuiltin(current);
      const values: Record<string, unknown> = { ...body };
      if (body.permissions) values.permissions = checkedPermissions(c, body.permissions as string[]);
      // Operators are not per tenant, so role names are unique across tenants; the tenant says where it was made.
      if (!current) values.tenant = tenantOf(c);
      // A rename follows into `operators.role` (ON UPDATE CASCADE): no operator loses its role.
      return values;
    },
    beforeDelete: async (tx, row) => {
      refuseBuiltin(row);
      await assertUnused(tx, row.name as string);
    },
    summaries: {
      list: 'List roles: the built-ins (admin, user) with the permissions they hold, and the custom ones',
      get: 'One role',
      create:
        'Create a role: a name and its permissions (`<section>.<action>`, as the sections declare them)',
      update: 'Edit a custom role (a stale version is 40900; built-ins are 40300)',
      remove: 'Delete a custom role no operator holds (40900 otherwise; built-ins are 40300)',
    },
  });
