import { actressesPermissions } from '../../../common/permissions/actresses';
import { defineModule } from '../../core/module';
import { actressRoutes } from './routes';

/**
 * Actresses (SPEC.md §2 /actress, API /app/admin/actresses): performer profiles and their links to movies
 * (`movie_actresses`, declared by the movie module). Every operator reads, creates, edits, shows/hides and links;
 * deleting is admin-only and, with linked movies, needs `force` (the links go in the same transaction).
 */
export default defineModule({
  name: 'actresses',
  permissions: [actressesPermissions],
  order: 60,
  mount: { '/admin/actresses': actressRoutes },
});
