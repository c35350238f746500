import { defineModule } from '../../core/module';
import { appsPerPlatform, promotionRoutes } from './routes';

/** Promotion apps (SPEC.md §2 /setting/promotionapp, API /app/admin/setting/promotion-apps): the browsers and apps the content site promotes. */
export default defineModule({
  name: 'promotion-apps',
  mount: { '/admin/setting/promotion-apps': promotionRoutes },
  platformUsage: { field: 'apps', count: appsPerPlatform },
});
export { appsForPlatform } from './routes';
