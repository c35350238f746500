import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import CampaignIcon from '@mui/icons-material/Campaign';
import HistoryIcon from '@mui/icons-material/History';
import InstallMobileIcon from '@mui/icons-material/InstallMobile';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import QueryStatsIcon from '@mui/icons-material/QueryStats';
import SettingsIcon from '@mui/icons-material/Settings';
import TuneIcon from '@mui/icons-material/Tune';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import {
  APP_API,
  APP_MSG,
  AUDIT_API,
  NOTICE_API,
  NOTICE_MSG,
  OPERATOR_API,
  OPERATOR_MSG,
  ROLE_API,
  ROLE_MSG,
  SECTION_MSG,
} from './names';

/**
 * Settings (SPEC.md §2 /setting, redirecting to notices): base settings, marquee and pop-up notices, promotion apps,
 * statistics settings; every operator sees them (read-only unless admin, as the API enforces). Operators and the
 * audit log are admin-only (DESIGN.md).
 */
const setting: SectionDecl = {
  path: 'setting',
  locale: `${SECTION_MSG}.menu.section`,
  icon: SettingsIcon,
  order: 90,
  redirect: 'notices',
  screens: [
    {
      path: 'base',
      locale: `${SECTION_MSG}.menu.base`,
      icon: TuneIcon,
      // every operator reads the base settings (the API's getSetting); saving them needs sys.settings
      editPermission: 'sys.settings',
      component: lazyScreen(() => import('./base/BaseSettings'), 'BaseSettings'),
    },
    {
      path: 'notices',
      locale: `${SECTION_MSG}.menu.notices`,
      icon: CampaignIcon,
      permission: 'notices.read',
      editPermission: 'notices.edit',
      resource: {
        apiPath: NOTICE_API,
        list: lazyScreen(() => import('./notices/NoticeList'), 'NoticeList'),
        recordRepresentation: 'title',
        screens: [
          {
            path: 'create',
            locale: `${NOTICE_MSG}.page.create`,
            component: lazyScreen(() => import('./notices/NoticeEdit'), 'NoticeCreate'),
            permission: 'notices.edit',
          },
          {
            path: 'edit/:id',
            locale: `${NOTICE_MSG}.page.editTitle`,
            component: lazyScreen(() => import('./notices/NoticeEdit'), 'NoticeEdit'),
            permission: 'notices.edit',
          },
        ],
      },
    },
    {
      path: 'promotionapp',
      locale: `${SECTION_MSG}.menu.promotionapp`,
      icon: InstallMobileIcon,
      permission: 'promotion-apps.read',
      editPermission: 'promotion-apps.edit',
      resource: {
        apiPath: APP_API,
        list: lazyScreen(() => import('./promotionapp/AppList'), 'AppList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: `${APP_MSG}.page.create`,
            component: lazyScreen(() => import('./promotionapp/AppInputs'), 'AppCreate'),
            permission: 'promotion-apps.edit',
          },
          {
            path: 'edit/:id',
            locale: `${APP_MSG}.page.editTitle`,
            component: lazyScreen(() => import('./promotionapp/AppInputs'), 'AppEdit'),
            permission: 'promotion-apps.edit',
          },
        ],
      },
    },
    {
      path: 'statistics',
      locale: `${SECTION_MSG}.menu.statistics`,
      icon: QueryStatsIcon,
      permission: 'statistics-settings.read',
      editPermission: 'statistics-settings.edit',
      component: lazyScreen(() => import('./statistics/StatisticsSettings'), 'StatisticsSettings'),
    },
    {
      path: 'operators',
      locale: `${SECTION_MSG}.menu.operators`,
      icon: ManageAccountsIcon,
      permission: 'operators.settings',
      resource: {
        apiPath: OPERATOR_API,
        list: lazyScreen(() => import('./operators/OperatorList'), 'OperatorList'),
        recordRepresentation: 'account',
        screens: [
          {
            path: 'create',
            locale: `${OPERATOR_MSG}.page.create`,
            component: lazyScreen(() => import('./operators/OperatorCreate'), 'OperatorCreate'),
          },
          {
            path: 'edit/:id',
            locale: `${OPERATOR_MSG}.page.editTitle`,
            component: lazyScreen(() => import('./operators/OperatorEdit'), 'OperatorEdit'),
          },
        ],
      },
    },
    {
      // Roles: named sets of the sections' permissions, given to operators; admins only.
      path: 'roles',
      locale: `${SECTION_MSG}.menu.roles`,
      icon: AdminPanelSettingsIcon,
      permission: 'roles.settings',
      resource: {
        apiPath: ROLE_API,
        list: lazyScreen(() => import('./roles/RoleList'), 'RoleList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: `${ROLE_MSG}.page.create`,
            component: lazyScreen(() => import('./roles/RoleEdit'), 'RoleCreate'),
          },
          {
            path: 'edit/:id',
            locale: `${ROLE_MSG}.page.editTitle`,
            component: lazyScreen(() => import('./roles/RoleEdit'), 'RoleEdit'),
          },
        ],
      },
    },
    {
      // The audit log: who changed what; admins only, as the API enforces.
      path: 'audit',
      locale: `${SECTION_MSG}.menu.audit`,
      icon: HistoryIcon,
      permission: 'audit.settings',
      resource: {
        apiPath: AUDIT_API,
        list: lazyScreen(() => import('./audit/AuditList'), 'AuditList'),
      },
    },
  ],
};
export default setting;
