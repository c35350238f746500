import { defineModule } from '../../core/module';
import { noticesPerPlatform } from './model';
import { noticeRoutes } from './routes';

/** Notices (SPEC.md §2 /setting/notices, API /app/admin/setting/notices): marquee and pop-up notices of the content site. */
export default defineModule({
  name: 'notices',
  mount: { '/admin/setting/notices': noticeRoutes },
  platformUsage: { field: 'notices', count: noticesPerPlatform },
});
