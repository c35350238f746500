import { z } from '@hono/zod-openapi';
import { eq, ilike, sql } from 'drizzle-orm';
import { can, security } from '../../core/auth';
import { crudResource, switchActions } from '../../core/resource';
import { containsPattern, intQuery } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Tx } from '../../db/types';
import { bumpSiteVersion, setSiteBoundaries } from '../site/state';
import { assertKnownPlatforms } from '../sys/platforms';
import {
  NOTICE_STATES,
  Notice,
  normalizeNotice,
  noticeBoundaries,
  noticeFields,
  noticeToApi,
  stateWhere,
} from './model';
import { NOTICE_TYPES, notices } from './schema';

/** After any write to notices: the site's ETag changes, and its boundaries follow the notices as they are now. */
async function touchSite(tx: Tx, tenant: number, now: Date) {
  await bumpSiteVersion(tx, tenant, now);
  await setSiteBoundaries(tx, tenant, await noticeBoundaries(tx, tenant, now));
}

/**
 * Notices (SPEC.md §2 /setting/notices): marquee lines and pop-ups the content site shows on some platforms during
 * a time window. Every operator reads them; admins write them. Their state is derived from the server's clock.
 */
export const noticeRoutes = () =>
  crudResource({
    tag: 'notices',
    table: notices,
    schema: Notice,
    scope: { field: 'tenant', value: tenantOf },
    sorts: {
      id: notices.id,
      sort: notices.sort,
      title: notices.title,
      startAt: notices.startAt,
      endAt: notices.endAt,
      createdAt: notices.createdAt,
      updatedAt: notices.updatedAt,
    },
    defaultSort: 'sort',
    filters: {
      q: z.string().trim().max(100).optional(),
      type: z.enum(NOTICE_TYPES).optional(),
      state: z.enum(NOTICE_STATES).optional(),
      platform: intQuery(0, 9999).optional(),
    },
    where: (q, c) => [
      q.q ? ilike(notices.title, containsPattern(q.q)) : undefined,
      q.type ? eq(notices.type, q.type) : undefined,
      q.state ? stateWhere(q.state, c.get('deps').clock.now()) : undefined,
      q.platform !== undefined ? sql`${notices.platforms} @> array[${q.platform}::integer]` : undefined,
    ],
    fields: noticeFields,
    create: z
      .object({
        ...noticeFields,
        endAt: noticeFields.endAt.optional().default(null),
        enabled: noticeFields.enabled.optional().default(true),
        sort: noticeFields.sort.optional().default(0),
      })
      .openapi('NoticeCreate'),
    updateName: 'NoticeUpdate',
    toApi: (r, c) => noticeToApi(r as typeof notices.$inferSelect, c.get('deps').clock.now()),
    read: can('notices.read'),
    write: can('notices.edit'),
    security,
    // A whole notice is checked: a create, or an update merged over the row (its old platforms may stay).
    beforeSave: async (tx, body, { c, current }) => {
      const values = normalizeNotice({ ...current, ...body } as Parameters<typeof normalizeNotice>[0]);
      await assertKnownPlatforms(tx, tenantOf(c), values.platforms, 'platforms', current?.platforms);
      return values;
    },
    afterWrite: (tx, _row, c) => touchSite(tx, tenantOf(c), c.get('deps').clock.now()),
    batch: {
      summary:
        'Enable, disable or delete notices (admin): every id exists or nothing changes; one transaction',
      actions: switchActions(notices, 'enabled', ['enable', 'disable'], (tx, c) =>
        touchSite(tx, tenantOf(c), c.get('deps').clock.now()),
      ),
    },
    summaries: {
      list: 'List notices (filters: title, type, derived state, platform)',
      get: 'One notice',
      create: "Create a notice (admin; a pop-up's rich text is sanitized, its platforms must exist)",
      update: 'Edit a notice (admin; a stale version is 40900)',
      remove: 'Delete a notice (admin)',
    },
  });
