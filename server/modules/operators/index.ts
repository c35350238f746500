import { operatorsPermissions } from '../../../common/permissions/operators';
import { rolesPermissions } from '../../../common/permissions/roles';
import { defineModule } from '../../core/module';
import { authRoutes } from './auth-routes';
import { roleRoutes } from './role-routes';
import { operatorRoutes } from './routes';
import { resolveSession } from './sessions';

/**
 * Operators (API /app/admin/operators, and the session routes login, logout, info, password under /app/admin):
 * accounts, sessions, login throttling, and their management (admin only). It provides `authenticate`, which the
 * guards of core/auth.ts use.
 */
export default defineModule({
  name: 'operators',
  permissions: [operatorsPermissions, rolesPermissions],
  order: 20,
  mount: { '/admin': authRoutes, '/admin/operators': operatorRoutes, '/admin/setting/roles': roleRoutes },
  authenticate: (c, token) => {
    const { db, clock, config } = c.get('deps');
    return resolveSession(db, token, clock.now(), config.sessionIdleMs, c.get('permissions'));
  },
});
export { ensureFirstAdmin } from './bootstrap';
