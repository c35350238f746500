import { domainPermissions } from '../../../common/permissions/domain';
import { defineModule } from '../../core/module';
import { configRoutes } from './config-routes';
import { domainRoutes } from './domain-routes';
import { historyRoutes } from './history-routes';
import { overviewRoutes, poolRoutes } from './pool-routes';
import { resolveRoutes } from './resolve';
import { seedDomains } from './seed';
import { settingRoutes } from './setting-routes';

/**
 * Domains (SPEC.md §2 /domain): the store, pools and their runway, the carousel's weighted split and the
 * site's resolve endpoint (/app/site/domains/resolve, the Site-Key), channel bindings and the previewed swap, the
 * health checker's settings (the checker itself runs in server/node) and the history of every change.
 */
export default defineModule({
  name: 'domain',
  permissions: [domainPermissions],
  order: 160,
  mount: {
    '/admin/domain/domains': domainRoutes,
    '/admin/domain/pools': poolRoutes,
    '/admin/domain/overview': overviewRoutes,
    '/admin/domain/config': configRoutes,
    '/admin/domain/history': historyRoutes,
    '/admin/domain/setting': settingRoutes,
    '/site/domains': resolveRoutes,
  },
  seed: (db, at) =>
    seedDomains(db, { seed: at.seed, tenant: at.config.defaultTenant, now: at.now, reviewer: at.reviewer }),
});

export { claimHealthPass, type Probe, runHealthCheck } from './health';
