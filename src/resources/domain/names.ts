/**
 * Names of the domain section, without React: the section declaration (index.ts, in the initial bundle) reads them
 * too. Screens are named after their URL (`/domain/<screen>`).
 */

/** Messages shared by the section's screens (menu labels, statuses, roles, hostname errors). */
export const SECTION_MSG = 'resources.domain';

export const STORE_RESOURCE = 'domain/store';
export const STORE_API = 'admin/domain/domains';
export const STORE_MSG = `resources.${STORE_RESOURCE}`;
export const POOL_RESOURCE = 'domain/pool';
export const POOL_API = 'admin/domain/pools';
export const POOL_MSG = `resources.${POOL_RESOURCE}`;
export const HISTORY_RESOURCE = 'domain/history';
export const HISTORY_API = 'admin/domain/history';
export const HISTORY_MSG = `resources.${HISTORY_RESOURCE}`;
export const OVERVIEW_API = 'admin/domain/overview';
export const CONFIG_API = 'admin/domain/config';
export const SETTING_API = 'admin/domain/setting';
export const IMPORT_MSG = 'resources.domain/storeAdd';
export const CAROUSEL_MSG = 'resources.domain/carousel';
export const CONFIG_MSG = 'resources.domain/config';
export const SETTING_MSG = 'resources.domain/setting';
