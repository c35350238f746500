import FaceRetouchingNaturalIcon from '@mui/icons-material/FaceRetouchingNatural';
import RecentActorsIcon from '@mui/icons-material/RecentActors';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { ACTRESS_API, ACTRESS_MSG, ACTRESS_RESOURCE, SECTION_MSG } from './names';

/**
 * Actresses (SPEC.md §2 /actress → /actress/list): the profiles list, and one hidden profile page
 * `/actress/edit/:id?` that edits (with an id) or creates (without), highlighting the list in the menu.
 */
const actress: SectionDecl = {
  path: 'actress',
  locale: `${SECTION_MSG}.menu.section`,
  icon: FaceRetouchingNaturalIcon,
  order: 20,
  permission: 'actresses.read',
  redirect: 'list',
  screens: [
    {
      path: 'list',
      locale: `${SECTION_MSG}.menu.list`,
      icon: RecentActorsIcon,
      resource: {
        apiPath: ACTRESS_API,
        list: lazyScreen(() => import('./ActressList'), 'ActressList'),
        recordRepresentation: 'name',
        editPath: '/actress/edit/:id',
        createPath: '/actress/edit',
      },
    },
    {
      path: 'edit/:id?',
      locale: `${ACTRESS_MSG}.page.editTitle`,
      hideInMenu: true,
      activeMenu: '/actress/list',
      component: lazyScreen(() => import('./ActressEdit'), 'ActressEdit'),
      resourceName: ACTRESS_RESOURCE,
    },
  ],
};
export default actress;
