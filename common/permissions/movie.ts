import { sectionPermissions } from '../permissions';

/** Movies: operators edit, review and publish; deleting and the columns, tags and sources (settings) are admins'. */
export const moviePermissions = sectionPermissions(
  'movie',
  ['read', 'edit', 'review', 'batch', 'settings'],
  ['read', 'edit', 'review', 'batch'],
);
