import { sectionPermissions } from '../permissions';

/** Novels: operators edit, review and import chapters; deleting a novel and the column tree (settings) are admins'. */
export const novelPermissions = sectionPermissions(
  'novel',
  ['read', 'edit', 'review', 'batch', 'settings'],
  ['read', 'edit', 'review', 'batch'],
);
