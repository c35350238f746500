/**
 * Names of the settings section, without React: the section declaration (index.ts, in the initial bundle) reads
 * them too. Each screen folder is named after its URL (`/setting/<screen>`).
 */

/** Messages shared by the section's screens (its menu labels). */
export const SECTION_MSG = 'resources.setting';

export const BASE_MSG = 'resources.setting/base';
export const NOTICE_RESOURCE = 'setting/notices';
export const NOTICE_API = 'admin/setting/notices';
export const NOTICE_MSG = `resources.${NOTICE_RESOURCE}`;
export const APP_RESOURCE = 'setting/promotionapp';
export const APP_API = 'admin/setting/promotion-apps';
export const APP_MSG = `resources.${APP_RESOURCE}`;
export const STATISTICS_MSG = 'resources.setting/statistics';
export const OPERATOR_RESOURCE = 'setting/operators';
export const OPERATOR_API = 'admin/operators';
export const OPERATOR_MSG = `resources.${OPERATOR_RESOURCE}`;
export const ROLE_RESOURCE = 'setting/roles';
export const ROLE_API = 'admin/setting/roles';
export const ROLE_MSG = `resources.${ROLE_RESOURCE}`;
export const AUDIT_RESOURCE = 'setting/audit';
export const AUDIT_API = 'admin/setting/audit';
export const AUDIT_MSG = `resources.${AUDIT_RESOURCE}`;
