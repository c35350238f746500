import { sectionPermissions } from '../permissions';

/** Statistics: every operator reads the reports; the rollup, stuck days and keyword adoption (settings) are admins'. */
export const statisticsPermissions = sectionPermissions('statistics', ['read', 'settings'], ['read']);
