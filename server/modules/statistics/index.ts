import { statisticsPermissions } from '../../../common/permissions/statistics';
import { defineModule } from '../../core/module';
import { EVENTS_MOUNT, ingestRoutes, statsRoutes } from './routes';
import { seedEvents } from './seed';

/**
 * Statistics: the content site's events (POST /app/site/events, the site key), raw in day partitions,
 * folded by the rollup into daily and hourly tables per dimension; the reports (/app/admin/stats) read only those.
 * See CONTRACT.md. (The folder keeps the section's name; its admin API segment is `stats`.)
 */
export default defineModule({
  name: 'statistics',
  permissions: [statisticsPermissions],
  order: 110,
  mount: { [EVENTS_MOUNT]: ingestRoutes, '/admin/stats': statsRoutes },
  // A month of sample events through the ingestion, then the rollup (after the movies they view).
  seed: async (db, at) => {
    await seedEvents(db, { seed: at.seed, tenant: at.config.defaultTenant, now: at.now });
  },
});

export { busyDays, EMBEDDED_BUSY_DAY, RollupPace, RollupStuck, runRollup } from './rollup';
export { REPORT_TABLES, warmReads } from './warm-reads';
