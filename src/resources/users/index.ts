import PeopleIcon from '@mui/icons-material/People';
import PersonIcon from '@mui/icons-material/Person';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { SECTION_MSG, USER_API } from './names';

/** Members (SPEC.md §2 users/list): the content site's registered users; operators stay at /setting/operators. */
const users: SectionDecl = {
  path: 'users',
  locale: `${SECTION_MSG}.menu.section`,
  icon: PeopleIcon,
  order: 70,
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
  ],
};
export default users;
