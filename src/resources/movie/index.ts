import CategoryIcon from '@mui/icons-material/AccountTree';
import LiveTvIcon from '@mui/icons-material/LiveTv';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import MovieIcon from '@mui/icons-material/Movie';
import RateReviewIcon from '@mui/icons-material/RateReview';
import SettingsInputAntennaIcon from '@mui/icons-material/SettingsInputAntenna';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';
import {
  COLUMN_API,
  COLUMN_MSG,
  MOVIE_API,
  MOVIE_MSG,
  SECTION_MSG,
  SOURCE_API,
  SOURCE_MSG,
  TAG_API,
  TAG_MSG,
} from './names';

const screen = (name: string) =>
  lazyScreen(() => import('./screens'), name as keyof typeof import('./screens'));

/**
 * Movies (SPEC.md §2 /movie): the review queue and the online content (both the movies API with a fixed view),
 * column management, tags and video sources. Edit pages are hidden and highlight their list.
 */
const movie: SectionDecl = {
  path: 'movie',
  locale: `${SECTION_MSG}.menu.section`,
  icon: MovieIcon,
  order: 10,
  permission: 'movie.read',
  redirect: 'review',
  screens: [
    {
      path: 'review',
      locale: `${SECTION_MSG}.menu.review`,
      icon: RateReviewIcon,
      resource: {
        apiPath: MOVIE_API,
        list: screen('ReviewList'),
        recordRepresentation: 'title',
        screens: [
          {
            path: 'create',
            locale: `${MOVIE_MSG.review}.page.create`,
            component: screen('ReviewCreate'),
          },
          {
            path: 'edit/:id',
            locale: `${MOVIE_MSG.review}.page.editTitle`,
            component: screen('ReviewEdit'),
          },
        ],
      },
    },
    {
      path: 'onlinectx',
      locale: `${SECTION_MSG}.menu.onlinectx`,
      icon: LiveTvIcon,
      resource: {
        apiPath: MOVIE_API,
        list: screen('OnlineList'),
        recordRepresentation: 'title',
        screens: [
          {
            path: 'edit/:id',
            locale: `${MOVIE_MSG.online}.page.editTitle`,
            component: screen('OnlineEdit'),
          },
        ],
      },
    },
    {
      path: 'category',
      editPermission: 'movie.settings',
      locale: `${SECTION_MSG}.menu.category`,
      icon: CategoryIcon,
      resource: {
        apiPath: COLUMN_API,
        list: screen('CategoryList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: `${COLUMN_MSG}.page.create`,
            component: screen('CategoryCreate'),
            permission: 'movie.settings',
          },
          {
            path: 'edit/:id',
            locale: `${COLUMN_MSG}.page.editTitle`,
            component: screen('CategoryEdit'),
            permission: 'movie.settings',
          },
        ],
      },
    },
    {
      path: 'tags',
      editPermission: 'movie.settings',
      locale: `${SECTION_MSG}.menu.tags`,
      icon: LocalOfferIcon,
      resource: {
        apiPath: TAG_API,
        list: screen('TagList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: `${TAG_MSG}.page.create`,
            component: screen('TagCreate'),
            permission: 'movie.settings',
          },
          {
            path: 'edit/:id',
            locale: `${TAG_MSG}.page.editTitle`,
            component: screen('TagEdit'),
            permission: 'movie.settings',
          },
        ],
      },
    },
    {
      path: 'sources',
      editPermission: 'movie.settings',
      locale: `${SECTION_MSG}.menu.sources`,
      icon: SettingsInputAntennaIcon,
      resource: {
        apiPath: SOURCE_API,
        list: screen('SourceList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: `${SOURCE_MSG}.page.create`,
            component: screen('SourceCreate'),
            permission: 'movie.settings',
          },
          {
            path: 'edit/:id',
            locale: `${SOURCE_MSG}.page.editTitle`,
            component: screen('SourceEdit'),
            permission: 'movie.settings',
          },
        ],
      },
    },
  ],
};
export default movie;
