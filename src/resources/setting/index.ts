import CampaignIcon from '@mui/icons-material/Campaign';
import InstallMobileIcon from '@mui/icons-material/InstallMobile';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import QueryStatsIcon from '@mui/icons-material/QueryStats';
import SettingsIcon from '@mui/icons-material/Settings';
import TuneIcon from '@mui/icons-material/Tune';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';

/**
 * Settings (SPEC.md §2 /setting, redirecting to notices): base settings, marquee and pop-up notices, promotion apps,
 * statistics settings; every operator sees them (read-only unless admin, as the API enforces). Operators are
 * admin-only (DESIGN.md).
 */
const setting: SectionDecl = {
  path: 'setting',
  locale: 'shell.menu.setting',
  icon: SettingsIcon,
  order: 90,
  redirect: 'notices',
  screens: [
    {
      path: 'base',
      locale: 'shell.menu.base',
      icon: TuneIcon,
      component: lazyScreen(() => import('./base/BaseSettings'), 'BaseSettings'),
    },
    {
      path: 'notices',
      locale: 'shell.menu.notices',
      icon: CampaignIcon,
      resource: {
        apiPath: 'admin/setting/notices',
        list: lazyScreen(() => import('./notices/NoticeList'), 'NoticeList'),
        recordRepresentation: 'title',
        screens: [
          {
            path: 'create',
            locale: 'resources.setting/notices.page.create',
            component: lazyScreen(() => import('./notices/NoticeEdit'), 'NoticeCreate'),
            roles: ['admin'],
          },
          {
            path: 'edit/:id',
            locale: 'resources.setting/notices.page.editTitle',
            component: lazyScreen(() => import('./notices/NoticeEdit'), 'NoticeEdit'),
            roles: ['admin'],
          },
        ],
      },
    },
    {
      path: 'promotionapp',
      locale: 'shell.menu.promotionapp',
      icon: InstallMobileIcon,
      resource: {
        apiPath: 'admin/setting/promotion-apps',
        list: lazyScreen(() => import('./promotionapp/AppList'), 'AppList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: 'resources.setting/promotionapp.page.create',
            component: lazyScreen(() => import('./promotionapp/AppInputs'), 'AppCreate'),
            roles: ['admin'],
          },
          {
            path: 'edit/:id',
            locale: 'resources.setting/promotionapp.page.editTitle',
            component: lazyScreen(() => import('./promotionapp/AppInputs'), 'AppEdit'),
            roles: ['admin'],
          },
        ],
      },
    },
    {
      path: 'statistics',
      locale: 'shell.menu.statistics',
      icon: QueryStatsIcon,
      component: lazyScreen(() => import('./statistics/StatisticsSettings'), 'StatisticsSettings'),
    },
    {
      path: 'operators',
      locale: 'shell.menu.operators',
      icon: ManageAccountsIcon,
      roles: ['admin'],
      resource: {
        apiPath: 'admin/operators',
        list: lazyScreen(() => import('./operators/OperatorList'), 'OperatorList'),
        recordRepresentation: 'account',
        screens: [
          {
            path: 'create',
            locale: 'resources.setting/operators.page.create',
            component: lazyScreen(() => import('./operators/OperatorCreate'), 'OperatorCreate'),
          },
          {
            path: 'edit/:id',
            locale: 'resources.setting/operators.page.editTitle',
            component: lazyScreen(() => import('./operators/OperatorEdit'), 'OperatorEdit'),
          },
        ],
      },
    },
  ],
};
export default setting;
