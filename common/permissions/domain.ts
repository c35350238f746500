import { sectionPermissions } from '../permissions';

/** Domains: operators import, edit, batch and swap; pools, settings and deleting a domain are admins'. */
export const domainPermissions = sectionPermissions(
  'domain',
  ['read', 'edit', 'batch', 'settings'],
  ['read', 'edit', 'batch'],
);
