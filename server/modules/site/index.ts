import { sitePermissions } from '../../../common/permissions/site';
import { defineModule } from '../../core/module';
import { siteKeyRoutes, siteRoutes } from './routes';

/**
 * The public, read-only site API under /app/site: what the content site shows on a platform, named by
 * the tenant's site key instead of an operator session; and the admin routes to see and regenerate that key.
 */
export default defineModule({
  name: 'site',
  permissions: [sitePermissions],
  order: 130,
  mount: {
    '/site': (modules) => {
      const tenantSettings = modules.find((m) => m.tenantSettings)?.tenantSettings;
      if (!tenantSettings) throw new Error('No module declares tenantSettings (the settings module, sys)');
      return siteRoutes(
        modules.flatMap((m) => (m.site ? [m.site] : [])),
        tenantSettings,
      );
    },
    '/admin/setting/site-key': siteKeyRoutes,
  },
});
