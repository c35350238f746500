import BarChartIcon from '@mui/icons-material/BarChart';
import LanguageIcon from '@mui/icons-material/Language';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import MovieIcon from '@mui/icons-material/Movie';
import SearchIcon from '@mui/icons-material/Search';
import TravelExploreIcon from '@mui/icons-material/TravelExplore';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import {
  DOMAIN_HOURS_RESOURCE,
  DOMAIN_PICK_RESOURCE,
  DOMAINS_RESOURCE,
  KEYWORDS_RESOURCE,
  M,
  MOVIES_RESOURCE,
  STATS_APIS,
  TAGS_RESOURCE,
  UNSEEN_RESOURCE,
  VISITS_RESOURCE,
} from './names';

const screen = (name: keyof typeof import('./screens')) => lazyScreen(() => import('./screens'), name);

/**
 * Statistics (SPEC.md §2 /stats, redirecting to hot keywords): reports over the rolled-up event stream (issue #12).
 * Each screen is a report (src/components/ReportList); the detail pages are hidden and highlight their list.
 */
const stats: SectionDecl = {
  path: 'stats',
  locale: `${M}.menu.stats`,
  icon: BarChartIcon,
  order: 80,
  redirect: 'hotkeyword',
  resources: { [UNSEEN_RESOURCE]: STATS_APIS[UNSEEN_RESOURCE] },
  screens: [
    {
      path: 'hotkeyword',
      locale: `${M}.menu.hotkeyword`,
      icon: SearchIcon,
      component: screen('HotKeywords'),
      resourceName: KEYWORDS_RESOURCE,
      apiPath: STATS_APIS[KEYWORDS_RESOURCE],
    },
    {
      path: 'movies',
      locale: `${M}.menu.movies`,
      icon: MovieIcon,
      component: screen('MovieStats'),
      resourceName: MOVIES_RESOURCE,
      apiPath: STATS_APIS[MOVIES_RESOURCE],
    },
    {
      path: 'tags',
      locale: `${M}.menu.tags`,
      icon: LocalOfferIcon,
      component: screen('TagStats'),
      resourceName: TAGS_RESOURCE,
      apiPath: STATS_APIS[TAGS_RESOURCE],
    },
    {
      path: 'domains',
      locale: `${M}.menu.domains`,
      icon: LanguageIcon,
      component: screen('DomainStats'),
      resourceName: DOMAINS_RESOURCE,
      apiPath: STATS_APIS[DOMAINS_RESOURCE],
    },
    {
      path: 'domains/detail',
      locale: `${M}.menu.domainDetail`,
      hideInMenu: true,
      activeMenu: '/stats/domains',
      component: screen('DomainHours'),
      resourceName: DOMAIN_HOURS_RESOURCE,
      apiPath: STATS_APIS[DOMAIN_HOURS_RESOURCE],
    },
    {
      path: 'domainsvisit',
      locale: `${M}.menu.domainsvisit`,
      icon: TravelExploreIcon,
      component: screen('DomainVisits'),
      resourceName: DOMAIN_PICK_RESOURCE,
      apiPath: STATS_APIS[DOMAIN_PICK_RESOURCE],
    },
    {
      path: 'domainsvisit/detail',
      locale: `${M}.menu.domainVisitDetail`,
      hideInMenu: true,
      activeMenu: '/stats/domainsvisit',
      component: screen('DomainVisitDetail'),
      resourceName: VISITS_RESOURCE,
      apiPath: STATS_APIS[VISITS_RESOURCE],
    },
  ],
};
export default stats;
