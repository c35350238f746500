import { z } from '@hono/zod-openapi';
import { promotionAppsPermissions } from '../../../common/permissions/promotion-apps';
import { defineModule } from '../../core/module';
import { appsForPlatform, appsPerPlatform, promotionRoutes } from './routes';

/** Promotion apps (SPEC.md §2 /setting/promotionapp, API /app/admin/setting/promotion-apps): the browsers and apps the content site promotes. */
export default defineModule({
  name: 'promotion-apps',
  permissions: [promotionAppsPermissions],
  order: 90,
  mount: { '/admin/setting/promotion-apps': promotionRoutes },
  platformUsage: { field: 'apps', count: appsPerPlatform },
  site: {
    field: 'apps',
    schema: z.array(
      z.object({
        id: z.number(),
        name: z.string(),
        icon: z.string(),
        url: z.string(),
        os: z.enum(['android', 'ios', 'desktop']),
      }),
    ),
    read: (db, { tenant, platform }) => appsForPlatform(db, tenant, platform),
  },
});
