import { sectionPermissions } from '../permissions';

/** Operator accounts: admins'. */
export const operatorsPermissions = sectionPermissions('operators', ['settings'], []);
