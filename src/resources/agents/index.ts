import HandshakeIcon from '@mui/icons-material/Handshake';
import LeaderboardIcon from '@mui/icons-material/Leaderboard';
import PeopleAltIcon from '@mui/icons-material/PeopleAlt';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import {
  AGENT_API,
  AGENT_RESOURCE,
  DAILY_API,
  DAILY_RESOURCE,
  SECTION_MSG,
  STAT_API,
  STAT_RESOURCE,
} from './names';

const stat = lazyScreen(() => import('./AgentStat'), 'AgentStat');

/**
 * Channel agents (SPEC.md §2 /agents): the agents with their promotion links and bound domains, and their
 * stat (`/agents/stat` every agent, `/agents/stat/:agentId` one agent day by day, with its settlements).
 */
const agents: SectionDecl = {
  path: 'agents',
  locale: `${SECTION_MSG}.menu.section`,
  icon: HandshakeIcon,
  order: 75,
  permission: 'agents.read',
  redirect: 'list',
  resources: { [DAILY_RESOURCE]: DAILY_API },
  screens: [
    {
      path: 'list',
      locale: `${SECTION_MSG}.menu.list`,
      icon: PeopleAltIcon,
      resource: {
        apiPath: AGENT_API,
        list: lazyScreen(() => import('./AgentList'), 'AgentList'),
        recordRepresentation: 'name',
        editPath: '/agents/edit/:id',
        createPath: '/agents/edit',
      },
    },
    {
      path: 'edit/:id?',
      // the API's writes here need agents.edit: other operators read the page
      editPermission: 'agents.edit',
      locale: `${SECTION_MSG}.menu.edit`,
      hideInMenu: true,
      activeMenu: '/agents/list',
      component: lazyScreen(() => import('./AgentEdit'), 'AgentEdit'),
      resourceName: AGENT_RESOURCE,
    },
    {
      path: 'stat',
      locale: `${SECTION_MSG}.menu.stat`,
      icon: LeaderboardIcon,
      component: stat,
      resourceName: STAT_RESOURCE,
      apiPath: STAT_API,
    },
    {
      path: 'stat/:agentId',
      locale: `${SECTION_MSG}.menu.stat`,
      hideInMenu: true,
      activeMenu: '/agents/stat',
      component: stat,
      resourceName: STAT_RESOURCE,
    },
  ],
};
export default agents;
