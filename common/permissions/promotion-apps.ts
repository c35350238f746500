import { sectionPermissions } from '../permissions';

/** Promotion apps: every operator reads them; writing them is admins'. */
export const promotionAppsPermissions = sectionPermissions('promotion-apps', ['read', 'edit'], ['read']);
