import { z } from '@hono/zod-openapi';
import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { auditedRoute, auditMany } from '../../core/audit';
import { can, security } from '../../core/auth';
import { PG_INT_MAX } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError } from '../../core/errors';
import { crudResource, switchActions } from '../../core/resource';
import { createRoute } from '../../core/route';
import { boolQuery, containsPattern, countOf, intQuery, iso, transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { isHttpUrl } from '../../core/url';
import type { Executor, Tx } from '../../db/types';
import { imageField } from '../images/paths';
import { bumpSiteVersion } from '../site/state';
import { assertKnownPlatforms, countPerPlatform } from '../sys/platforms';
import { APP_SYSTEMS, promotionApps } from './schema';

const tags = ['promotion apps'];
/** A tenant promotes at most this many apps (the reorder screen shows them all on one page). */
export const MAX_APPS = 100;

type Row = typeof promotionApps.$inferSelect;

export const PromotionApp = z
  .object({
    id: z.number(),
    name: z.string(),
    icon: z.string().openapi({ description: 'An uploaded image path (encrypted), an http(s) URL, or empty' }),
    url: z.string(),
    os: z.enum(APP_SYSTEMS),
    platforms: z.array(z.number()),
    sort: z.number(),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('PromotionApp');

const toApi = (r: Row): z.infer<typeof PromotionApp> => ({
  id: r.id,
  name: r.name,
  icon: r.icon,
  url: r.url,
  os: r.os,
  platforms: (r.platforms ?? []).map(Number),
  sort: r.sort,
  enabled: r.enabled,
  createdAt: iso(r.createdAt) as string,
  updatedAt: iso(r.updatedAt) as string,
  version: r.version,
});

const fields = {
  name: z.string().trim().min(1).max(64),
  icon: imageField(),
  url: z
    .string()
    .trim()
    .min(1)
    .max(1024)
    .refine(isHttpUrl, { params: { key: 'field.httpUrl' } }),
  os: z.enum(APP_SYSTEMS),
  platforms: z
    .array(z.number().int().min(0).max(9999))
    .min(1)
    .max(50)
    .refine((a) => new Set(a).size === a.length, { params: { key: 'field.duplicate' } }),
  sort: z.number().int().min(0).max(100_000),
  enabled: z.boolean(),
};

const ReorderBody = z
  .object({
    ids: z
      .array(z.number().int().positive().max(PG_INT_MAX))
      .max(MAX_APPS)
      .refine((a) => new Set(a).size === a.length, { params: { key: 'field.duplicate' } }),
  })
  .openapi('PromotionAppOrder');

const reorderRoute = createRoute({
  method: 'post',
  path: '/reorder',
  tags,
  security,
  summary:
    'Put every promotion app of the tenant in this order (admin): `ids` must be all of them, or 40900 (the list changed: reload); positions become 1, 2, 3… in one transaction',
  middleware: can('promotion-apps.edit'),
  request: { body: jsonBody(ReorderBody) },
  responses: jsonResponse(z.object({ changed: z.number() })),
});

/** Named query (site module): the enabled apps shown on a platform, in position order. */
export async function appsForPlatform(db: Executor, tenant: number, platform: number) {
  const rows = await db
    .select({
      id: promotionApps.id,
      name: promotionApps.name,
      icon: promotionApps.icon,
      url: promotionApps.url,
      os: promotionApps.os,
    })
    .from(promotionApps)
    .where(
      and(
        eq(promotionApps.tenant, tenant),
        eq(promotionApps.enabled, true),
        sql`${promotionApps.platforms} @> array[${platform}::integer]`,
      ),
    )
    .orderBy(asc(promotionApps.sort), asc(promotionApps.id))
    .limit(MAX_APPS);
  return rows;
}

/** Named query (platform usage): how many of the tenant's apps name each platform. */
export const appsPerPlatform = (db: Executor, tenant: number, keys: number[]) =>
  countPerPlatform(db, promotionApps, tenant, keys);

const touchSite = (tx: Tx, tenant: number, now: Date) => bumpSiteVersion(tx, tenant, now);

/**
 * Promotion apps (SPEC.md §2 /setting/promotionapp): the browsers and apps the site promotes, in an order the admins
 * set by dragging or by number. Every operator reads them; admins write them.
 */
export function promotionRoutes() {
  const app = crudResource({
    tag: tags[0],
    table: promotionApps,
    schema: PromotionApp,
    scope: { field: 'tenant', value: tenantOf },
    sorts: {
      sort: promotionApps.sort,
      id: promotionApps.id,
      name: promotionApps.name,
      createdAt: promotionApps.createdAt,
    },
    defaultSort: 'sort',
    filters: {
      q: z.string().trim().max(64).optional(),
      os: z.enum(APP_SYSTEMS).optional(),
      platform: intQuery(0, 9999).optional(),
      enabled: boolQuery.optional(),
    },
    where: (q) => [
      q.q ? ilike(promotionApps.name, containsPattern(q.q)) : undefined,
      q.os ? eq(promotionApps.os, q.os) : undefined,
      q.enabled !== undefined ? eq(promotionApps.enabled, q.enabled) : undefined,
      q.platform !== undefined ? sql`${promotionApps.platforms} @> array[${q.platform}::integer]` : undefined,
    ],
    fields,
    create: z
      .object({
        ...fields,
        icon: fields.icon.optional().default(''),
        sort: fields.sort.nullable().optional(), // none: after the last
        enabled: fields.enabled.optional().default(true),
      })
      .openapi('PromotionAppCreate'),
    updateName: 'PromotionAppUpdate',
    toApi: (r) => toApi(r as Row),
    read: can('promotion-apps.read'),
    write: can('promotion-apps.edit'),
    security,
    beforeSave: async (tx, body, { c, current }) => {
      const tenant = tenantOf(c);
      if (current) {
        if (body.platforms)
          await assertKnownPlatforms(tx, tenant, body.platforms, 'platforms', current.platforms);
        return;
      }
      // Creates of one tenant take turns (the site row's lock, taken first), so the cap and the next position hold.
      await touchSite(tx, tenant, c.get('deps').clock.now());
      await assertKnownPlatforms(tx, tenant, body.platforms, 'platforms');
      const [{ n, last }] = await tx
        .select({ n: countOf, last: sql<number>`coalesce(max(${promotionApps.sort}), 0)::int` })
        .from(promotionApps)
        .where(eq(promotionApps.tenant, tenant));
      if (n >= MAX_APPS) throw new ApiError(Code.INVALID, 'promotion.tooMany', { max: MAX_APPS });
      return { ...body, sort: body.sort ?? Math.min(Number(last) + 1, 100_000) };
    },
    // A create has bumped the site's version already (beforeSave).
    afterWrite: async (tx, _row, c, kind) => {
      if (kind !== 'create') await touchSite(tx, tenantOf(c), c.get('deps').clock.now());
    },
    batch: {
      summary: 'Enable, disable or delete promotion apps (admin): all or nothing, one transaction',
      actions: switchActions(promotionApps, 'enabled', ['enable', 'disable'], (tx, c) =>
        touchSite(tx, tenantOf(c), c.get('deps').clock.now()),
      ),
    },
    summaries: {
      list: 'List promotion apps (by position unless told otherwise)',
      get: 'One promotion app',
      create: `Create a promotion app (admin; placed last unless a sort is given; at most ${MAX_APPS})`,
      update: 'Edit a promotion app (admin; a stale version is 40900)',
      remove: 'Delete a promotion app (admin)',
    },
  });

  app.openapi(auditedRoute(reorderRoute), async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const { ids } = c.req.valid('json');
    const changed = await transaction(db, async (tx) => {
      const now = clock.now();
      await touchSite(tx, tenant, now);
      const rows = await tx
        .select({ id: promotionApps.id, sort: promotionApps.sort })
        .from(promotionApps)
        .where(eq(promotionApps.tenant, tenant))
        .orderBy(asc(promotionApps.id))
        .for('update');
      // The order must name exactly the apps there are: one added or deleted meanwhile means a stale screen.
      const given = new Set(ids);
      if (rows.length !== ids.length || rows.some((r) => !given.has(r.id)))
        throw new ApiError(Code.CONFLICT, 'promotion.reorderStale');
      const position = new Map(ids.map((id, i) => [id, i + 1]));
      const moved = rows.filter((r) => r.sort !== position.get(r.id));
      const movedIds = moved.map((r) => r.id);
      if (moved.length)
        await tx
          .update(promotionApps)
          .set({
            sort: sql`(array_position(${sql.param(ids)}::integer[], ${promotionApps.id}))`,
            version: sql`${promotionApps.version} + 1`,
            updatedAt: now,
          })
          .where(inArray(promotionApps.id, movedIds));
      // Each app that moved with its position before and after.
      await auditMany(tx, c, {
        resource: 'promotion apps',
        action: 'reorder',
        ids: movedIds,
        changed: moved.length,
        extra: { sort: moved.map((r) => ({ id: r.id, before: r.sort, after: position.get(r.id) })) },
      });
      return moved.length;
    });
    return ok(c, { changed });
  });

  return app;
}
