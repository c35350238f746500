import { sectionPermissions } from '../permissions';

/** Ads: every operator reads materials, advertisers, positions, change sets and reports; writes are admins'. */
export const adPermissions = sectionPermissions('ad', ['read', 'edit'], ['read']);
