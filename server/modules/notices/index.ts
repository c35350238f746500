import { z } from '@hono/zod-openapi';
import { noticesPermissions } from '../../../common/permissions/notices';
import { defineModule } from '../../core/module';
import { liveNotices, noticesPerPlatform } from './model';
import { noticeRoutes } from './routes';

/** Notices (SPEC.md §2 /setting/notices, API /app/admin/setting/notices): marquee and pop-up notices of the content site. */
export default defineModule({
  name: 'notices',
  permissions: [noticesPermissions],
  order: 80,
  mount: { '/admin/setting/notices': noticeRoutes },
  platformUsage: { field: 'notices', count: noticesPerPlatform },
  site: {
    field: 'notices',
    schema: z.object({
      marquee: z.array(
        z.object({
          id: z.number(),
          title: z.string(),
          content: z.string(),
          startAt: z.string(),
          endAt: z.string().nullable(),
        }),
      ),
      popup: z.array(
        z.object({
          id: z.number(),
          title: z.string(),
          content: z
            .string()
            .openapi({ description: 'Sanitized HTML: p, br, strong, em, ul, ol, li, a (http(s))' }),
          startAt: z.string(),
          endAt: z.string().nullable(),
        }),
      ),
    }),
    read: async (db, { tenant, platform, now }) => {
      const live = await liveNotices(db, tenant, platform, now);
      return {
        marquee: live.filter((n) => n.type === 'marquee').map(({ type: _t, ...n }) => n),
        popup: live.filter((n) => n.type === 'popup').map(({ type: _t, ...n }) => n),
      };
    },
  },
});
