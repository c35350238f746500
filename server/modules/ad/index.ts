import { adPermissions } from '../../../common/permissions/ad';
import { defineModule } from '../../core/module';
import { changeRoutes, replaceRoutes } from './replace';
import { adReportRoutes } from './reports';
import { adRoutes, adsPerPlatform, advertiserRoutes, positionRoutes } from './routes';
import { seedAds } from './seed';
import { siteAdsRoutes } from './site';

/**
 * Ads (SPEC.md §2 /ad): advertisers, positions and materials, the batch replacement of landing links as
 * reversible change sets, the reports over the statistics rollups, and the site's read of its live materials
 * (`GET /app/site/ads`, with the Site-Key, cached like the site config). See CONTRACT.md.
 */
export default defineModule({
  name: 'ad',
  permissions: [adPermissions],
  order: 120,
  mount: {
    '/admin/ad/ads': adRoutes,
    '/admin/ad/advertisers': advertiserRoutes,
    '/admin/ad/positions': positionRoutes,
    '/admin/ad/replace': replaceRoutes,
    '/admin/ad/changes': changeRoutes,
    '/admin/ad/reports': adReportRoutes,
    '/site/ads': siteAdsRoutes,
  },
  platformUsage: { field: 'ads', count: adsPerPlatform },
  // After statistics: the sample events name these materials only through this seed.
  seed: async (db, at) => {
    await seedAds(db, { seed: at.seed, tenant: at.config.defaultTenant, now: at.now });
  },
});
