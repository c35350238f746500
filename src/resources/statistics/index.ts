import BarChartIcon from '@mui/icons-material/BarChart';
import LanguageIcon from '@mui/icons-material/Language';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import MovieIcon from '@mui/icons-material/Movie';
import SearchIcon from '@mui/icons-material/Search';
import TravelExploreIcon from '@mui/icons-material/TravelExplore';
import { loadReportScreen } from '../../components/reportScreen';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import {
  DOMAIN_HOURS_API,
  DOMAIN_HOURS_RESOURCE,
  DOMAIN_PICK_RESOURCE,
  DOMAINS_API,
  DOMAINS_RESOURCE,
  KEYWORDS_API,
  KEYWORDS_RESOURCE,
  MOVIES_API,
  MOVIES_RESOURCE,
  SECTION_MSG,
  TAGS_API,
  TAGS_RESOURCE,
  UNSEEN_API,
  UNSEEN_RESOURCE,
  VISITS_API,
  VISITS_RESOURCE,
} from './names';

const screen = (name: keyof typeof import('./screens')) =>
  lazyScreen(() => loadReportScreen(() => import('./screens')), name);

/**
 * Statistics (SPEC.md §2 /stats, redirecting to hot keywords): reports over the rolled-up event stream (issue #12).
 * Each screen is a report (src/components/ReportList); the detail pages are hidden and highlight their list.
 */
const stats: SectionDecl = {
  path: 'stats',
  locale: `${SECTION_MSG}.menu.section`,
  icon: BarChartIcon,
  order: 80,
  permission: 'statistics.read',
  redirect: 'hotkeyword',
  resources: { [UNSEEN_RESOURCE]: UNSEEN_API },
  screens: [
    {
      path: 'hotkeyword',
      locale: `${SECTION_MSG}.menu.hotkeyword`,
      icon: SearchIcon,
      component: screen('HotKeywords'),
      resourceName: KEYWORDS_RESOURCE,
      apiPath: KEYWORDS_API,
    },
    {
      path: 'movies',
      locale: `${SECTION_MSG}.menu.movies`,
      icon: MovieIcon,
      component: screen('MovieStats'),
      resourceName: MOVIES_RESOURCE,
      apiPath: MOVIES_API,
    },
    {
      path: 'tags',
      locale: `${SECTION_MSG}.menu.tags`,
      icon: LocalOfferIcon,
      component: screen('TagStats'),
      resourceName: TAGS_RESOURCE,
      apiPath: TAGS_API,
    },
    {
      path: 'domains',
      locale: `${SECTION_MSG}.menu.domains`,
      icon: LanguageIcon,
      component: screen('DomainStats'),
      resourceName: DOMAINS_RESOURCE,
      apiPath: DOMAINS_API,
    },
    {
      path: 'domains/detail',
      locale: `${SECTION_MSG}.menu.domainDetail`,
      hideInMenu: true,
      activeMenu: '/stats/domains',
      component: screen('DomainHours'),
      resourceName: DOMAIN_HOURS_RESOURCE,
      apiPath: DOMAIN_HOURS_API,
    },
    {
      path: 'domainsvisit',
      locale: `${SECTION_MSG}.menu.domainsvisit`,
      icon: TravelExploreIcon,
      component: screen('DomainVisits'),
      resourceName: DOMAIN_PICK_RESOURCE,
      apiPath: DOMAINS_API,
    },
    {
      path: 'domainsvisit/detail',
      locale: `${SECTION_MSG}.menu.domainVisitDetail`,
      hideInMenu: true,
      activeMenu: '/stats/domainsvisit',
      component: screen('DomainVisitDetail'),
      resourceName: VISITS_RESOURCE,
      apiPath: VISITS_API,
    },
  ],
};
export default stats;
