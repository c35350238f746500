import { usersPermissions } from '../../../common/permissions/users';
import { defineModule } from '../../core/module';
import { siteSignupRoutes, userRoutes } from './routes';
import { seedUsers } from './seed';

/**
 * The content site's members (SPEC.md §2 /users/list, API /app/admin/users): the list at a million rows,
 * batches (enable, disable, group; VIP extension is admin-only) and the ban that hides what a member posted and
 * blacklists their address, with its exact undo (admins). Operators stay in the operators module.
 */
export default defineModule({
  name: 'users',
  permissions: [usersPermissions],
  order: 140,
  mount: { '/admin/users': userRoutes, '/site/users': siteSignupRoutes },
  seed: (db, at) => seedUsers(db, { seed: at.seed, tenant: at.config.defaultTenant, now: at.now }),
});
