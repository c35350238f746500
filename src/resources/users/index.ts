import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { SECTION_MSG, USER_API, USER_RESOURCE } from './names';

/**
 * Members (SPEC.md §2 users/list): the content site's registered users, and one member's page (`/users/detail/:id`,
 * hidden); operators stay at /setting/operators.
 */
const users: SectionDecl = {
  path: 'users',
  locale: `${SECTION_MSG}.menu.section`,
  icon: PeopleIcon,
  order: 70,
  permission: 'users.read',
  redirect: 'list',
  screens: [
    {
      path: 'list',
      locale: `${SECTION_MSG}.menu.list`,
      icon: PersonIcon,
      resource: {
        apiPath: USER_API,
        list: lazyScreen(() => import('./UserList'), 'UserList'),
        recordRepresentation: 'account',
      },
    },
    {
      path: 'detail/:id',
      // the API's edit and reset code need users.edit: other operators read the page
      editPermission: 'users.edit',
      locale: `${SECTION_MSG}.menu.detail`,
      hideInMenu: true,
      activeMenu: '/users/list',
      component: lazyScreen(() => import('./UserDetail'), 'UserDetail'),
      resourceName: USER_RESOURCE,
    },
  ],
};
export default users;
