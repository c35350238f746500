import ChatIcon from '@mui/icons-material/Chat';
import CommentIcon from '@mui/icons-material/Comment';
import FilterAltIcon from '@mui/icons-material/FilterAlt';
import MarkChatUnreadIcon from '@mui/icons-material/MarkChatUnread';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { COMMENT_API, COMMENT_RESOURCE, GUESTBOOK_API, SECTION_MSG } from './names';

/**
 * Comments (SPEC.md §2 /comment → /comment/list): the comments, the guestbook, the filter settings and one
 * member's comments (`/comment/view?user=…`, hidden, highlighting the list).
 */
const comment: SectionDecl = {
  path: 'comment',
  locale: `${SECTION_MSG}.menu.section`,
  icon: ChatIcon,
  order: 60,
  permission: 'comment.read',
  redirect: 'list',
  screens: [
    {
      path: 'list',
      locale: `${SECTION_MSG}.menu.list`,
      icon: CommentIcon,
      resource: {
        apiPath: COMMENT_API,
        list: lazyScreen(() => import('./CommentList'), 'CommentList'),
        recordRepresentation: 'content',
      },
    },
    {
      path: 'guestbook',
      locale: `${SECTION_MSG}.menu.guestbook`,
      icon: MarkChatUnreadIcon,
      resource: {
        apiPath: GUESTBOOK_API,
        list: lazyScreen(() => import('./GuestbookList'), 'GuestbookList'),
        recordRepresentation: 'content',
      },
    },
    {
      path: 'setting',
      locale: `${SECTION_MSG}.menu.setting`,
      icon: FilterAltIcon,
      component: lazyScreen(() => import('./FilterSettings'), 'FilterSettings'),
    },
    {
      path: 'view',
      locale: `${SECTION_MSG}.menu.view`,
      hideInMenu: true,
      activeMenu: '/comment/list',
      component: lazyScreen(() => import('./CommentView'), 'CommentView'),
      resourceName: COMMENT_RESOURCE,
    },
  ],
};
export default comment;
