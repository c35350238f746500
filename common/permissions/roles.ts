import { sectionPermissions } from '../permissions';

/** Roles and their permissions: admins'. */
export const rolesPermissions = sectionPermissions('roles', ['settings'], []);
