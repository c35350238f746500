import AdsClickIcon from '@mui/icons-material/AdsClick';
import CampaignIcon from '@mui/icons-material/Campaign';
import InsightsIcon from '@mui/icons-material/Insights';
import PaidIcon from '@mui/icons-material/Paid';
import ViewQuiltIcon from '@mui/icons-material/ViewQuilt';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import {
  AD_API,
  AD_RESOURCE,
  ADVERTISER_API,
  ADVERTISER_DAILY_API,
  ADVERTISER_DAILY_RESOURCE,
  ADVERTISER_RESOURCE,
  CHANGES_API,
  CHANGES_RESOURCE,
  DAILY_API,
  DAILY_RESOURCE,
  MATERIAL_DAILY_API,
  MATERIAL_DAILY_RESOURCE,
  POSITION_API,
  POSITION_DAILY_API,
  POSITION_DAILY_RESOURCE,
  POSITION_RESOURCE,
  REPORT_ADVERTISERS_API,
  REPORT_ADVERTISERS_RESOURCE,
  REPORT_MATERIALS_API,
  REPORT_MATERIALS_RESOURCE,
  REPORT_POSITIONS_API,
  REPORT_POSITIONS_RESOURCE,
  SECTION_MSG,
} from './names';

const report = (name: keyof typeof import('./AdReports')) => lazyScreen(() => import('./AdReports'), name);

/**
 * Ads (SPEC.md §2 /ad → /ad/list): materials, the batch replacement of landing links, positions, and the
 * reports over the statistics rollups. Hidden screens highlight their list.
 */
const ad: SectionDecl = {
  path: 'ad',
  locale: `${SECTION_MSG}.menu.section`,
  icon: CampaignIcon,
  order: 70,
  permission: 'ad.read',
  redirect: 'list',
  resources: {
    [ADVERTISER_RESOURCE]: ADVERTISER_API,
    [CHANGES_RESOURCE]: CHANGES_API,
    [REPORT_POSITIONS_RESOURCE]: REPORT_POSITIONS_API,
    [REPORT_ADVERTISERS_RESOURCE]: REPORT_ADVERTISERS_API,
    [REPORT_MATERIALS_RESOURCE]: REPORT_MATERIALS_API,
  },
  screens: [
    {
      path: 'list',
      locale: `${SECTION_MSG}.menu.list`,
      icon: AdsClickIcon,
      resource: {
        apiPath: AD_API,
        list: lazyScreen(() => import('./AdList'), 'AdList'),
        recordRepresentation: 'title',
        editPath: '/ad/edit/:id',
        createPath: '/ad/edit',
      },
    },
    {
      path: 'edit/:id?',
      // the API's writes here need ad.edit: other operators read the page
      editPermission: 'ad.edit',
      locale: `${SECTION_MSG}.menu.edit`,
      hideInMenu: true,
      activeMenu: '/ad/list',
      component: lazyScreen(() => import('./AdEdit'), 'AdEdit'),
      resourceName: AD_RESOURCE,
    },
    {
      path: 'editBatch',
      // the API's writes here need ad.edit: other operators read the page
      editPermission: 'ad.edit',
      locale: `${SECTION_MSG}.menu.editBatch`,
      hideInMenu: true,
      activeMenu: '/ad/list',
      component: lazyScreen(() => import('./EditBatch'), 'EditBatch'),
      resourceName: CHANGES_RESOURCE,
    },
    {
      path: 'report',
      locale: `${SECTION_MSG}.menu.report`,
      icon: InsightsIcon,
      component: report('AdReport'),
    },
    {
      path: 'view',
      locale: `${SECTION_MSG}.menu.view`,
      hideInMenu: true,
      activeMenu: '/ad/report',
      component: report('MaterialDaily'),
      resourceName: MATERIAL_DAILY_RESOURCE,
      apiPath: MATERIAL_DAILY_API,
    },
    {
      path: 'daily',
      locale: `${SECTION_MSG}.menu.daily`,
      icon: PaidIcon,
      component: report('AdDaily'),
      resourceName: DAILY_RESOURCE,
      apiPath: DAILY_API,
    },
    {
      path: 'advertiser',
      locale: `${SECTION_MSG}.menu.advertiser`,
      hideInMenu: true,
      activeMenu: '/ad/report',
      component: report('AdvertiserDaily'),
      resourceName: ADVERTISER_DAILY_RESOURCE,
      apiPath: ADVERTISER_DAILY_API,
    },
    {
      path: 'positon',
      locale: `${SECTION_MSG}.menu.positon`,
      hideInMenu: true,
      activeMenu: '/ad/report',
      component: report('PositionDaily'),
      resourceName: POSITION_DAILY_RESOURCE,
      apiPath: POSITION_DAILY_API,
    },
    {
      path: 'adplacelist',
      locale: `${SECTION_MSG}.menu.adplacelist`,
      icon: ViewQuiltIcon,
      resource: {
        apiPath: POSITION_API,
        list: lazyScreen(() => import('./PositionList'), 'PositionList'),
        recordRepresentation: 'name',
        editPath: '/ad/adplaceedit/:id',
        createPath: '/ad/adplaceedit',
      },
    },
    {
      path: 'adplaceedit/:id?',
      // the API's writes here need ad.edit: other operators read the page
      editPermission: 'ad.edit',
      locale: `${SECTION_MSG}.menu.adplaceedit`,
      hideInMenu: true,
      activeMenu: '/ad/adplacelist',
      component: lazyScreen(() => import('./PositionEdit'), 'PositionEdit'),
      resourceName: POSITION_RESOURCE,
    },
  ],
};
export default ad;
