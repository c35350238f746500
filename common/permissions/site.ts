import { sectionPermissions } from '../permissions';

/** The site's key and signing secret: admins'. */
export const sitePermissions = sectionPermissions('site', ['settings'], []);
