import { moviePermissions } from '../../../common/permissions/movie';
import { defineModule } from '../../core/module';
import { columnRoutes } from './column-routes';
import { movieRoutes } from './movie-routes';
import { moviesPerPlatform } from './platform-usage';
import { sourceRoutes } from './source-routes';
import { tagRoutes } from './tag-routes';

/**
 * Movies (SPEC.md §2 /movie, API /app/admin/movie): the content items with their review and publishing rules, and
 * the columns, tags and video sources they are filed under and played from. Reads are for every operator; review,
 * publishing and editing items too (that is the content team's daily work); deleting items and managing columns,
 * tags and sources are admin-only.
 */
export default defineModule({
  name: 'movie',
  permissions: [moviePermissions],
  order: 40,
  mount: {
    '/admin/movie/movies': movieRoutes,
    '/admin/movie/columns': columnRoutes,
    '/admin/movie/tags': tagRoutes,
    '/admin/movie/sources': sourceRoutes,
  },
  platformUsage: { field: 'movies', count: (db, _tenant, keys) => moviesPerPlatform(db, keys) },
});
