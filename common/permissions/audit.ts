import { sectionPermissions } from '../permissions';

/** The audit log and its retention: admins'. */
export const auditPermissions = sectionPermissions('audit', ['settings'], []);
