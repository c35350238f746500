import { sectionPermissions } from '../permissions';

/** Collection: operators read the sites and run collections (edit); the resource sites themselves (settings) are admins'. */
export const collectPermissions = sectionPermissions(
  'collect',
  ['read', 'edit', 'settings'],
  ['read', 'edit'],
);
