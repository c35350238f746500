/**
 * Names and paths of the stats section, without React: the section declaration (index.ts, in the initial bundle)
 * reads them too. Each report is a react-admin resource named after its screen's URL; the report API is
 * `GET admin/stats/reports/<report>` (issue #12 contract).
 */

/** Messages shared by the section's screens (menu labels, figures, tabs, actions). */
export const SECTION_MSG = 'resources.stats';

export const KEYWORDS_RESOURCE = 'stats/hotkeyword';
export const KEYWORDS_API = 'admin/stats/reports/keywords';
export const MOVIES_RESOURCE = 'stats/movies';
export const MOVIES_API = 'admin/stats/reports/movies';
export const TAGS_RESOURCE = 'stats/tags';
export const TAGS_API = 'admin/stats/reports/tags';
/** Online content nobody viewed in the period (a tab of movies and of tags, no screen of its own). */
export const UNSEEN_RESOURCE = 'stats/unseen';
export const UNSEEN_API = 'admin/stats/reports/unseen';
export const DOMAINS_RESOURCE = 'stats/domains';
export const DOMAINS_API = 'admin/stats/reports/domains';
export const DOMAIN_HOURS_RESOURCE = 'stats/domains/detail';
export const DOMAIN_HOURS_API = 'admin/stats/reports/domain-hours';
/** The domains again, as the list to choose a domain's visits from. */
export const DOMAIN_PICK_RESOURCE = 'stats/domainsvisit';
export const VISITS_RESOURCE = 'stats/domainsvisit/detail';
export const VISITS_API = 'admin/stats/reports/visits';

/** The tenant's reporting calendar and the demand-gap action. */
export const META_API = 'admin/stats/meta';
export const ADOPT_API = 'admin/stats/keywords/adopt';

/** Where the detail pages are (SPEC.md §2). */
export const domainDetailPath = (domain: string) =>
  `/stats/domains/detail?domain=${encodeURIComponent(domain)}`;
export const visitDetailPath = (domain: string) =>
  `/stats/domainsvisit/detail?domain=${encodeURIComponent(domain)}`;
