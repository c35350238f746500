/**
 * Names of the ads section (SPEC.md §2 /ad), without React: the section declaration (index.ts, in the initial bundle)
 * reads them too. Each list or report is a react-admin resource named after its screen's URL.
 */

/** Messages shared by the section's screens (menu labels, fields, figures). */
export const SECTION_MSG = 'resources.ad';

/** The materials (`/ad/list`; API /app/admin/ad/ads). */
export const AD_RESOURCE = 'ad/list';
export const AD_API = 'admin/ad/ads';
export const AD_MSG = `resources.${AD_RESOURCE}`;
/** Positions (`/ad/adplacelist`). */
export const POSITION_RESOURCE = 'ad/adplacelist';
export const POSITION_API = 'admin/ad/positions';
export const POSITION_MSG = `resources.${POSITION_RESOURCE}`;
/** Advertisers (managed from the materials list). */
export const ADVERTISER_RESOURCE = 'ad/advertisers';
export const ADVERTISER_API = 'admin/ad/advertisers';
/** The batch link replacement and its change sets (`/ad/editBatch`). */
export const REPLACE_API = 'admin/ad/replace';
export const CHANGES_RESOURCE = 'ad/editBatch';
export const CHANGES_API = 'admin/ad/changes';
export const BATCH_MSG = `${SECTION_MSG}.batch`;

/** The reports (`GET admin/ad/reports/<report>`). */
export const REPORT_POSITIONS_RESOURCE = 'ad/report/positions';
export const REPORT_POSITIONS_API = 'admin/ad/reports/positions';
export const REPORT_ADVERTISERS_RESOURCE = 'ad/report/advertisers';
export const REPORT_ADVERTISERS_API = 'admin/ad/reports/advertisers';
export const REPORT_MATERIALS_RESOURCE = 'ad/report/materials';
export const REPORT_MATERIALS_API = 'admin/ad/reports/materials';
export const DAILY_RESOURCE = 'ad/daily';
export const DAILY_API = 'admin/ad/reports/daily';
export const ADVERTISER_DAILY_RESOURCE = 'ad/advertiser';
export const ADVERTISER_DAILY_API = 'admin/ad/reports/advertiser';
export const POSITION_DAILY_RESOURCE = 'ad/positon';
export const POSITION_DAILY_API = 'admin/ad/reports/position';
export const MATERIAL_DAILY_RESOURCE = 'ad/view';
export const MATERIAL_DAILY_API = 'admin/ad/reports/material';

/** Where the detail screens are (SPEC.md §2; `positon` keeps SPEC's spelling). */
export const adEditPath = (id?: number | string) => (id ? `/ad/edit/${id}` : '/ad/edit');
export const positionEditPath = (id?: number | string) => (id ? `/ad/adplaceedit/${id}` : '/ad/adplaceedit');
export const materialReportPath = (id: number | string) => `/ad/view?id=${id}`;
export const advertiserReportPath = (id: number | string) => `/ad/advertiser?id=${id}`;
export const positionReportPath = (id: number | string) => `/ad/positon?id=${id}`;
