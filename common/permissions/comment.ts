import { sectionPermissions } from '../permissions';

/** Comments and the guestbook: operators review, reply and try filter rules; deleting and the filters (settings) are admins'. */
export const commentPermissions = sectionPermissions(
  'comment',
  ['read', 'edit', 'review', 'batch', 'settings'],
  ['read', 'edit', 'review', 'batch'],
);
