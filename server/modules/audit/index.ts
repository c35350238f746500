import { auditPermissions } from '../../../common/permissions/audit';
import { defineModule } from '../../core/module';
import { auditRoutes } from './routes';

export { purgeExpiredAudit } from './purge';

/**
 * The audit log (API /app/admin/setting/audit; SPA /setting/audit): read by admins, written by every
 * mutating admin route through server/core/audit.ts, purged past its retention by the Node server (docs/audit.md).
 */
export default defineModule({
  name: 'audit',
  permissions: [auditPermissions],
  order: 35,
  mount: { '/admin/setting/audit': auditRoutes },
});
