import FaceRetouchingNaturalIcon from '@mui/icons-material/FaceRetouchingNatural';
import RecentActorsIcon from '@mui/icons-material/RecentActors';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';

/** The react-admin resource of the section: the list screen's path (its API is /app/admin/actresses). */
export const ACTRESS_RESOURCE = 'actress/list';
/** Its API path under /app (her movies are `${ACTRESS_API}/{id}/movies`). */
export const ACTRESS_API = 'admin/actresses';

/**
 * Actresses (SPEC.md §2 /actress → /actress/list): the profiles list, and one hidden profile page
 * `/actress/edit/:id?` that edits (with an id) or creates (without), highlighting the list in the menu.
 */
const actress: SectionDecl = {
  path: 'actress',
  locale: 'shell.menu.actress',
  icon: FaceRetouchingNaturalIcon,
  order: 20,
  redirect: 'list',
  screens: [
    {
      path: 'list',
      locale: 'shell.menu.actressList',
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
      locale: `resources.${ACTRESS_RESOURCE}.page.editTitle`,
      hideInMenu: true,
      activeMenu: '/actress/list',
      component: lazyScreen(() => import('./ActressEdit'), 'ActressEdit'),
      resourceName: ACTRESS_RESOURCE,
    },
  ],
};
export default actress;
