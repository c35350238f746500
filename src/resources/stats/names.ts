/**
 * Names and paths of the stats section, without React: the section declaration (index.ts, in the initial bundle)
 * reads them too.
 */

/** The report API (issue #12 contract): `GET admin/stats/reports/<report>`. */
const REPORTS = 'admin/stats/reports';

/** The react-admin resources of the section (each report a resource) and their API paths. */
export const KEYWORDS_RESOURCE = 'stats/hotkeyword';
export const MOVIES_RESOURCE = 'stats/movies';
export const TAGS_RESOURCE = 'stats/tags';
export const UNSEEN_RESOURCE = 'stats/unseen';
export const DOMAINS_RESOURCE = 'stats/domains';
export const DOMAIN_HOURS_RESOURCE = 'stats/domains/detail';
export const DOMAIN_PICK_RESOURCE = 'stats/domainsvisit';
export const VISITS_RESOURCE = 'stats/domainsvisit/detail';

export const STATS_APIS = {
  [KEYWORDS_RESOURCE]: `${REPORTS}/keywords`,
  [MOVIES_RESOURCE]: `${REPORTS}/movies`,
  [TAGS_RESOURCE]: `${REPORTS}/tags`,
  [UNSEEN_RESOURCE]: `${REPORTS}/unseen`,
  [DOMAINS_RESOURCE]: `${REPORTS}/domains`,
  [DOMAIN_HOURS_RESOURCE]: `${REPORTS}/domain-hours`,
  [DOMAIN_PICK_RESOURCE]: `${REPORTS}/domains`,
  [VISITS_RESOURCE]: `${REPORTS}/visits`,
} as const;

/** The tenant's reporting calendar and the demand-gap action. */
export const META_API = 'admin/stats/meta';
export const ADOPT_API = 'admin/stats/keywords/adopt';

/** Messages shared by the section's screens (menu, figures, tabs, actions). */
export const M = 'resources.stats';

/** Where the detail pages are (SPEC.md §2). */
export const domainDetailPath = (domain: string) =>
  `/stats/domains/detail?domain=${encodeURIComponent(domain)}`;
export const visitDetailPath = (domain: string) =>
  `/stats/domainsvisit/detail?domain=${encodeURIComponent(domain)}`;
