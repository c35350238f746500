import { sectionPermissions } from '../permissions';

/** Statistics settings: every operator reads them; writing them is admins'. */
export const statisticsSettingsPermissions = sectionPermissions(
  'statistics-settings',
  ['read', 'edit'],
  ['read'],
);
