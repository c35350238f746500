import MovieIcon from '@mui/icons-material/Movie';
import RateReviewIcon from '@mui/icons-material/RateReview';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';

/** Movies (SPEC.md §2 /movie). Only the review queue for now; the rest comes with issue #3. */
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
      component: lazyScreen(() => import('./ReviewList'), 'ReviewList'),
    },
  ],
};
export default movie;
