import { sectionPermissions } from '../permissions';

/** Notices: every operator reads them; writing them is admins'. */
export const noticesPermissions = sectionPermissions('notices', ['read', 'edit'], ['read']);
