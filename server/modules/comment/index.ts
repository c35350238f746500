import { commentPermissions } from '../../../common/permissions/comment';
import { defineModule } from '../../core/module';
import { blacklistAddress, unblacklist } from './filter';
import { hideAllOf, restoreHidden } from './moderation';
import {
  commentRoutes,
  filterRoutes,
  guestbookRoutes,
  siteCommentRoutes,
  siteGuestbookRoutes,
} from './routes';
import { seedComments } from './seed';

/**
 * Comments and the guestbook (SPEC.md §2 /comment, API /app/admin/comment/*): both reviewed with the
 * review kit (pending, rejected, online = shown, offline = hidden), the guestbook's inline reply, and the filter of
 * each (words to mask, hold or block after normalisation, address blacklist with CIDR, intervals, review first,
 * login required) that the site's posts go through (`POST /app/site/comments`, `/app/site/guestbook`, Site-Key),
 * with its trial over past items and the bulk application. Deleting and saving or applying the filter are
 * admin-only.
 */
export default defineModule({
  name: 'comment',
  permissions: [commentPermissions],
  order: 150,
  mount: {
    '/admin/comment/comments': commentRoutes,
    '/admin/comment/guestbook': guestbookRoutes,
    '/admin/comment/filters': filterRoutes,
    '/site/comments': siteCommentRoutes,
    '/site/guestbook': siteGuestbookRoutes,
  },
  // A member's ban hides what they posted and blacklists their address; its undo puts both back.
  memberBan: {
    ban: async (tx, { tenant, userId, address, now }) => ({
      ...(await hideAllOf(tx, userId, now)),
      blacklist: address ? await blacklistAddress(tx, tenant, address, now) : [],
    }),
    undo: async (tx, { tenant, effects, now }) => {
      const restored = await restoreHidden(tx, effects, now);
      await unblacklist(tx, tenant, effects.blacklist, now);
      return restored;
    },
  },
  // After the members they are written by.
  seed: (db, at) => seedComments(db, { seed: at.seed, tenant: at.config.defaultTenant, now: at.now }),
});
