import { sectionPermissions } from '../permissions';

/** Base settings (every operator reads them, the admin-only fields aside) and the platform usage: writing is admins'. */
export const sysPermissions = sectionPermissions('sys', ['settings'], []);
