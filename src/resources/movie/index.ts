import CategoryIcon from '@mui/icons-material/AccountTree';
import LiveTvIcon from '@mui/icons-material/LiveTv';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import MovieIcon from '@mui/icons-material/Movie';
import RateReviewIcon from '@mui/icons-material/RateReview';
import SettingsInputAntennaIcon from '@mui/icons-material/SettingsInputAntenna';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';

const screen = (name: string) =>
  lazyScreen(() => import('./screens'), name as keyof typeof import('./screens'));

/**
 * Movies (SPEC.md §2 /movie): the review queue and the online content (both the movies API with a fixed view),
 * column management, tags and video sources. Edit pages are hidden and highlight their list.
 */
const movie: SectionDecl = {
  path: 'movie',
  locale: 'shell.menu.movie',
  icon: MovieIcon,
  order: 10,
  redirect: 'review',
  screens: [
    {
      path: 'review',
      locale: 'shell.menu.review',
      icon: RateReviewIcon,
      resource: {
        apiPath: 'admin/movie/movies',
        list: screen('ReviewList'),
        recordRepresentation: 'title',
        screens: [
          {
            path: 'edit/:id',
            locale: 'resources.movie/review.page.editTitle',
            component: screen('ReviewEdit'),
          },
        ],
      },
    },
    {
      path: 'onlinectx',
      locale: 'shell.menu.onlinectx',
      icon: LiveTvIcon,
      resource: {
        apiPath: 'admin/movie/movies',
        list: screen('OnlineList'),
        recordRepresentation: 'title',
        screens: [
          {
            path: 'edit/:id',
            locale: 'resources.movie/onlinectx.page.editTitle',
            component: screen('OnlineEdit'),
          },
        ],
      },
    },
    {
      path: 'category',
      locale: 'shell.menu.category',
      icon: CategoryIcon,
      resource: {
        apiPath: 'admin/movie/columns',
        list: screen('CategoryList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: 'resources.movie/category.page.create',
            component: screen('CategoryCreate'),
            roles: ['admin'],
          },
          {
            path: 'edit/:id',
            locale: 'resources.movie/category.page.editTitle',
            component: screen('CategoryEdit'),
            roles: ['admin'],
          },
        ],
      },
    },
    {
      path: 'tags',
      locale: 'shell.menu.tags',
      icon: LocalOfferIcon,
      resource: {
        apiPath: 'admin/movie/tags',
        list: screen('TagList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: 'resources.movie/tags.page.create',
            component: screen('TagCreate'),
            roles: ['admin'],
          },
          {
            path: 'edit/:id',
            locale: 'resources.movie/tags.page.editTitle',
            component: screen('TagEdit'),
            roles: ['admin'],
          },
        ],
      },
    },
    {
      path: 'sources',
      locale: 'shell.menu.sources',
      icon: SettingsInputAntennaIcon,
      resource: {
        apiPath: 'admin/movie/sources',
        list: screen('SourceList'),
        recordRepresentation: 'name',
        screens: [
          {
            path: 'create',
            locale: 'resources.movie/sources.page.create',
            component: screen('SourceCreate'),
            roles: ['admin'],
          },
          {
            path: 'edit/:id',
            locale: 'resources.movie/sources.page.editTitle',
            component: screen('SourceEdit'),
            roles: ['admin'],
          },
        ],
      },
    },
  ],
};
export default movie;
