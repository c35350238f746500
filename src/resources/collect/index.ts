import AccountTreeIcon from '@mui/icons-material/AccountTree';
import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import HistoryIcon from '@mui/icons-material/History';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import PublicIcon from '@mui/icons-material/Public';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { RUN_API, SECTION_MSG, SOURCE_API, SOURCE_RESOURCE } from './names';

/**
 * Collection from resource sites (issue #49): the sources (with their hidden edit page and its connection test),
 * starting a run and watching it, and the runs' history with each run's per-item log.
 */
const collect: SectionDecl = {
  path: 'collect',
  locale: `${SECTION_MSG}.menu.section`,
  icon: CloudDownloadIcon,
  order: 95,
  permission: 'collect.read',
  redirect: 'source',
  screens: [
    {
      path: 'source',
      locale: `${SECTION_MSG}.menu.source`,
      icon: PublicIcon,
      resource: {
        apiPath: SOURCE_API,
        list: lazyScreen(() => import('./SourceList'), 'SourceList'),
        recordRepresentation: 'name',
        editPath: '/collect/sourceEdit/:id',
        createPath: '/collect/sourceEdit',
      },
    },
    {
      path: 'sourceEdit/:id?',
      // the API's writes to sources need collect.settings: other operators read the page
      editPermission: 'collect.settings',
      locale: `${SECTION_MSG}.menu.sourceEdit`,
      hideInMenu: true,
      activeMenu: '/collect/source',
      component: lazyScreen(() => import('./SourceEdit'), 'SourceEdit'),
      resourceName: SOURCE_RESOURCE,
    },
    {
      path: 'bind',
      locale: `${SECTION_MSG}.menu.bind`,
      icon: AccountTreeIcon,
      component: lazyScreen(() => import('./Bind'), 'Bind'),
    },
    {
      path: 'task',
      locale: `${SECTION_MSG}.menu.task`,
      icon: PlayCircleIcon,
      component: lazyScreen(() => import('./Task'), 'Task'),
    },
    {
      path: 'history',
      locale: `${SECTION_MSG}.menu.history`,
      icon: HistoryIcon,
      resource: {
        apiPath: RUN_API,
        list: lazyScreen(() => import('./HistoryList'), 'HistoryList'),
        recordRepresentation: 'id',
      },
    },
  ],
};
export default collect;
