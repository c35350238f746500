import DnsIcon from '@mui/icons-material/Dns';
import HistoryIcon from '@mui/icons-material/History';
import PieChartIcon from '@mui/icons-material/PieChart';
import StorageIcon from '@mui/icons-material/Storage';
import TuneIcon from '@mui/icons-material/Tune';
import WorkspacesIcon from '@mui/icons-material/Workspaces';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { HISTORY_API, SECTION_MSG, STORE_API, STORE_MSG } from './names';

/**
 * Domains (SPEC.md §2 /domain): the carousel's traffic split, settings, the store (with the hidden import
 * and edit pages), the hidden channel bindings and replacement, pools with their runway, and the history.
 */
const domain: SectionDecl = {
  path: 'domain',
  locale: `${SECTION_MSG}.menu.section`,
  icon: DnsIcon,
  order: 70,
  permission: 'domain.read',
  redirect: 'store',
  screens: [
    {
      path: 'carousel',
      locale: `${SECTION_MSG}.menu.carousel`,
      icon: PieChartIcon,
      component: lazyScreen(() => import('./Carousel'), 'Carousel'),
    },
    {
      path: 'setting',
      locale: `${SECTION_MSG}.menu.setting`,
      icon: TuneIcon,
      component: lazyScreen(() => import('./DomainSettings'), 'DomainSettings'),
    },
    {
      path: 'store',
      locale: `${SECTION_MSG}.menu.store`,
      icon: StorageIcon,
      resource: {
        apiPath: STORE_API,
        list: lazyScreen(() => import('./StoreList'), 'StoreList'),
        recordRepresentation: 'unicode',
        screens: [
          {
            path: 'edit/:id',
            locale: `${STORE_MSG}.page.edit`,
            component: lazyScreen(() => import('./StoreEdit'), 'StoreEdit'),
          },
        ],
      },
    },
    {
      path: 'storeAdd',
      locale: `${SECTION_MSG}.menu.storeAdd`,
      hideInMenu: true,
      activeMenu: '/domain/store',
      component: lazyScreen(() => import('./StoreAdd'), 'StoreAdd'),
    },
    {
      path: 'config',
      locale: `${SECTION_MSG}.menu.config`,
      hideInMenu: true,
      activeMenu: '/domain/store',
      component: lazyScreen(() => import('./ConfigList'), 'ConfigList'),
    },
    {
      path: 'configEdit',
      locale: `${SECTION_MSG}.menu.configEdit`,
      hideInMenu: true,
      activeMenu: '/domain/store',
      component: lazyScreen(() => import('./ConfigEdit'), 'ConfigEdit'),
    },
    {
      path: 'pool',
      locale: `${SECTION_MSG}.menu.pool`,
      icon: WorkspacesIcon,
      component: lazyScreen(() => import('./PoolList'), 'PoolList'),
    },
    {
      path: 'history',
      locale: `${SECTION_MSG}.menu.history`,
      icon: HistoryIcon,
      resource: { apiPath: HISTORY_API, list: lazyScreen(() => import('./HistoryList'), 'HistoryList') },
    },
  ],
};
export default domain;
