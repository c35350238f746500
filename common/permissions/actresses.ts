import { sectionPermissions } from '../permissions';

/** Actresses: operators keep the profiles and their movie links; deleting one (settings) is admins'. */
export const actressesPermissions = sectionPermissions(
  'actresses',
  ['read', 'edit', 'batch', 'settings'],
  ['read', 'edit', 'batch'],
);
