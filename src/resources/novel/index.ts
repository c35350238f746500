import CategoryIcon from '@mui/icons-material/AccountTree';
import AutoStoriesIcon from '@mui/icons-material/AutoStories';
import RateReviewIcon from '@mui/icons-material/RateReview';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import { CHAPTER_API, CHAPTER_RESOURCE, COLUMN_MSG, NOVEL_API, NOVEL_RESOURCE, SECTION_MSG } from './names';

const screen = (name: keyof typeof import('./screens')) => lazyScreen(() => import('./screens'), name);

/**
 * Novels (SPEC.md §2 /novel): the review list with its hidden edit page (`edit/:id?`, create without an id), the
 * chapters of one novel and the chapter editor (hidden, highlighting the review list), and column management.
 */
const novel: SectionDecl = {
  path: 'novel',
  locale: `${SECTION_MSG}.menu.section`,
  icon: AutoStoriesIcon,
  order: 30,
  permission: 'novel.read',
  redirect: 'review',
  screens: [
    {
      path: 'review',
      locale: `${SECTION_MSG}.menu.review`,
      icon: RateReviewIcon,
      resource: {
        apiPath: NOVEL_API,
        list: screen('NovelList'),
        recordRepresentation: 'title',
        createPath: '/novel/review/edit',
        screens: [
          {
            path: 'edit/:id?',
            locale: `resources.${NOVEL_RESOURCE}.page.editTitle`,
            component: screen('NovelEdit'),
          },
        ],
      },
    },
    // The editor before the list: `/novel/chapters/edit` must not read as the chapters of novel "edit".
    {
      path: 'chapters/edit/:id?',
      locale: `resources.${CHAPTER_RESOURCE}.page.editTitle`,
      hideInMenu: true,
      activeMenu: '/novel/review',
      component: screen('ChapterEdit'),
      resourceName: CHAPTER_RESOURCE,
    },
    {
      path: 'chapters/:id',
      locale: `resources.${CHAPTER_RESOURCE}.page.listTitle`,
      hideInMenu: true,
      activeMenu: '/novel/review',
      component: screen('ChapterList'),
      resourceName: CHAPTER_RESOURCE,
      apiPath: CHAPTER_API,
    },
    {
      path: 'category',
      editPermission: 'novel.settings',
      locale: `${SECTION_MSG}.menu.category`,
      icon: CategoryIcon,
      resource: {
        apiPath: 'admin/novel/columns',
        list: screen('CategoryList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: `${COLUMN_MSG}.page.create`,
            component: screen('CategoryCreate'),
            permission: 'novel.settings',
          },
          {
            path: 'edit/:id',
            locale: `${COLUMN_MSG}.page.editTitle`,
            component: screen('CategoryEdit'),
            permission: 'novel.settings',
          },
        ],
      },
    },
  ],
};
export default novel;
