import { z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, sql } from 'drizzle-orm';
import { AD_DEVICES, AD_PRICING, AD_STATES, AD_TYPES } from '../../../common/ad';
import { Code } from '../../../common/codes';
import { can, security } from '../../core/auth';
import type { AppContext } from '../../core/context';
import { ApiError, invalidField } from '../../core/errors';
import { type BatchAction, crudResource, isoTimestamps, switchActions } from '../../core/resource';
import { boolQuery, containsPattern, countOf, gramsContain, intQuery } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Executor, Tx } from '../../db/types';
import { bumpSiteVersion } from '../site/state';
import { assertKnownPlatforms, countPerPlatform } from '../sys/platforms';
import {
  Ad,
  adBoundaries,
  adFields,
  adToApi,
  checkAd,
  expiringWhere,
  Position,
  positionFields,
  positionToApi,
  stateWhere,
} from './model';
import { adAdvertisers, adPositions, adSiteState, ads } from './schema';

const nowOf = (c: AppContext) => c.get('deps').clock.now();

/**
 * After any write that changes what the site's ads answer holds (materials, positions): the site's version is bumped
 * (its lock held to the end of the transaction, so writers of a tenant take turns) and the ad schedule boundaries
 * are read again.
 */
export async function touchAds(tx: Tx, tenant: number, now: Date) {
  await bumpSiteVersion(tx, tenant, now);
  const boundaries = await adBoundaries(tx, tenant, now);
  await tx
    .insert(adSiteState)
    .values({ tenant, boundaries })
    .onConflictDoUpdate({ target: adSiteState.tenant, set: { boundaries } });
}

/** Named query (platform usage): how many of the tenant's materials name each platform. */
export const adsPerPlatform = (db: Executor, tenant: number, keys: number[]) =>
  countPerPlatform(db, ads, tenant, keys);

const Advertiser = z
  .object({
    id: z.number(),
    name: z.string(),
    contact: z.string(),
    enabled: z.boolean(),
    notes: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('AdAdvertiser');

const advertiserFields = {
  name: z.string().trim().min(1).max(64),
  contact: z.string().trim().max(128),
  enabled: z.boolean(),
  notes: z.string().trim().max(500),
};

async function refuseIfUsed(
  tx: Tx,
  column: typeof ads.positionId | typeof ads.advertiserId,
  ids: number[],
  key: 'ad.positionInUse' | 'ad.advertiserInUse',
) {
  const rows = await tx
    .select({ id: column, n: countOf })
    .from(ads)
    .where(inArray(column, ids))
    .groupBy(column);
  if (rows.length)
    throw new ApiError(Code.CONFLICT, key, {
      ids: rows.map((r) => r.id).join(', '),
      count: rows.reduce((s, r) => s + Number(r.n), 0),
    });
}

/** Advertisers (who buys the materials): every operator reads them, admins write them. */
export function advertiserRoutes() {
  return crudResource({
    tag: 'ad advertisers',
    table: adAdvertisers,
    schema: Advertiser,
    scope: { field: 'tenant', value: tenantOf },
    sorts: { id: adAdvertisers.id, name: adAdvertisers.name, createdAt: adAdvertisers.createdAt },
    defaultSort: 'id',
    filters: { q: z.string().trim().max(64).optional(), enabled: boolQuery.optional() },
    where: (q) => [
      q.q ? ilike(adAdvertisers.name, containsPattern(q.q)) : undefined,
      q.enabled !== undefined ? eq(adAdvertisers.enabled, q.enabled) : undefined,
    ],
    fields: advertiserFields,
    create: z
      .object({
        ...advertiserFields,
        contact: advertiserFields.contact.optional().default(''),
        notes: advertiserFields.notes.optional().default(''),
        enabled: advertiserFields.enabled.optional().default(true),
      })
      .openapi('AdAdvertiserCreate'),
    updateName: 'AdAdvertiserUpdate',
    toApi: (r) => {
      const { tenant: _t, ...rest } = isoTimestamps(r) as Record<string, unknown>;
      return rest;
    },
    unique: 'name',
    read: can('ad.read'),
    write: can('ad.edit'),
    security,
    beforeDelete: (tx, row) => refuseIfUsed(tx, ads.advertiserId, [row.id], 'ad.advertiserInUse'),
    batch: {
      summary: 'Enable, disable or delete advertisers (admin): all or nothing; one with materials is 40900',
      actions: {
        ...switchActions(adAdvertisers, 'enabled', ['enable', 'disable']),
        delete: async (tx, ids) => {
          await refuseIfUsed(tx, ads.advertiserId, ids, 'ad.advertiserInUse');
          return (await tx.delete(adAdvertisers).where(inArray(adAdvertisers.id, ids)).returning()).length;
        },
      },
    },
  });
}

/** Positions: where the site shows ads. Every operator reads them, admins write them. */
export function positionRoutes() {
  return crudResource({
    tag: 'ad positions',
    table: adPositions,
    schema: Position,
    scope: { field: 'tenant', value: tenantOf },
    sorts: {
      id: adPositions.id,
      name: adPositions.name,
      key: adPositions.key,
      createdAt: adPositions.createdAt,
    },
    defaultSort: 'id',
    filters: {
      q: z.string().trim().max(64).optional(),
      type: z.enum(AD_TYPES).optional(),
      device: z.enum(AD_DEVICES).optional(),
      enabled: boolQuery.optional(),
    },
    where: (q) => [
      q.q
        ? sql`(${ilike(adPositions.name, containsPattern(q.q))} or ${ilike(adPositions.key, containsPattern(q.q))})`
        : undefined,
      q.type ? eq(adPositions.type, q.type) : undefined,
      q.device ? eq(adPositions.device, q.device) : undefined,
      q.enabled !== undefined ? eq(adPositions.enabled, q.enabled) : undefined,
    ],
    fields: positionFields,
    create: z
      .object({
        ...positionFields,
        width: positionFields.width.optional().default(0),
        height: positionFields.height.optional().default(0),
        device: positionFields.device.optional().default('all'),
        rotation: positionFields.rotation.optional().default('weighted'),
        fallbackAdId: positionFields.fallbackAdId.optional().default(null),
        enabled: positionFields.enabled.optional().default(true),
      })
      .openapi('AdPositionCreate'),
    updateName: 'AdPositionUpdate',
    toApi: (r) => positionToApi(r as typeof adPositions.$inferSelect),
    unique: 'key',
    read: can('ad.read'),
    write: can('ad.edit'),
    security,
    beforeSave: async (tx, body, { c, id }) => {
      if (body.fallbackAdId === undefined || body.fallbackAdId === null) return;
      // The fallback is one of the position's own materials (a new position has none yet).
      const [ad] = await tx
        .select({ positionId: ads.positionId })
        .from(ads)
        .where(and(eq(ads.id, body.fallbackAdId), eq(ads.tenant, tenantOf(c))));
      if (!ad) throw invalidField('fallbackAdId', 'field.notFound');
      if (ad.positionId !== id) throw invalidField('fallbackAdId', 'ad.fallbackElsewhere');
    },
    beforeDelete: (tx, row) => refuseIfUsed(tx, ads.positionId, [row.id], 'ad.positionInUse'),
    afterWrite: (tx, _row, c) => touchAds(tx, tenantOf(c), nowOf(c)),
    batch: {
      summary: 'Enable, disable or delete positions (admin): all or nothing; one with materials is 40900',
      actions: {
        ...switchActions(adPositions, 'enabled', ['enable', 'disable'], (tx, c) =>
          touchAds(tx, tenantOf(c), nowOf(c)),
        ),
        delete: async (tx, ids, c) => {
          await refuseIfUsed(tx, ads.positionId, ids, 'ad.positionInUse');
          const n = (await tx.delete(adPositions).where(inArray(adPositions.id, ids)).returning()).length;
          await touchAds(tx, tenantOf(c), nowOf(c));
          return n;
        },
      },
    },
  });
}

/** Materials deleted: a position whose fallback they were has none any more (and a new version). */
async function dropFallbacks(tx: Tx, ids: number[], now: Date) {
  await tx
    .update(adPositions)
    .set({ fallbackAdId: null, version: sql`${adPositions.version} + 1`, updatedAt: now })
    .where(inArray(adPositions.fallbackAdId, ids));
}

export const adFilters = {
  q: z.string().trim().max(100).optional(),
  url: z.string().trim().max(200).optional(),
  positionId: intQuery().optional(),
  advertiserId: intQuery().optional(),
  type: z.enum(AD_TYPES).optional(),
  state: z.enum(AD_STATES).optional(),
  pricing: z.enum(AD_PRICING).optional(),
  expiringDays: intQuery(1, 365).optional(),
  platform: intQuery(0, 9999).optional(),
};
export type AdFilter = { [K in keyof typeof adFilters]?: z.infer<NonNullable<(typeof adFilters)[K]>> };

/** The list's filters as conditions (the list, and "every ad matching a filter" of the batch replacement). */
export const adWhere = (q: AdFilter, now: Date) => [
  // The bigram indexes narrow, ILIKE rechecks.
  q.q ? gramsContain(ads.title, q.q) : undefined,
  q.url ? gramsContain(ads.landingUrl, q.url) : undefined,
  q.positionId !== undefined ? eq(ads.positionId, q.positionId) : undefined,
  q.advertiserId !== undefined ? eq(ads.advertiserId, q.advertiserId) : undefined,
  q.type ? eq(ads.type, q.type) : undefined,
  q.state ? stateWhere(q.state, now) : undefined,
  q.pricing ? eq(ads.pricing, q.pricing) : undefined,
  q.expiringDays !== undefined ? expiringWhere(q.expiringDays, now) : undefined,
  q.platform !== undefined ? sql`${ads.platforms} @> array[${q.platform}::integer]` : undefined,
];

const deleteAds: BatchAction = async (tx, ids, c) => {
  await dropFallbacks(tx, ids, nowOf(c));
  const n = (await tx.delete(ads).where(inArray(ads.id, ids)).returning({ id: ads.id })).length;
  await touchAds(tx, tenantOf(c), nowOf(c));
  return n;
};

/** Materials: every operator reads them, admins write them; the state is derived from the server's clock. */
export function adRoutes() {
  return crudResource({
    tag: 'ads',
    table: ads,
    schema: Ad,
    scope: { field: 'tenant', value: tenantOf },
    sorts: {
      id: ads.id,
      title: ads.title,
      startAt: ads.startAt,
      endAt: ads.endAt,
      weight: ads.weight,
      price: ads.price,
      updatedAt: ads.updatedAt,
    },
    defaultSort: 'id',
    filters: adFilters,
    where: (q, c) => adWhere(q as AdFilter, nowOf(c)),
    fields: adFields,
    create: z
      .object({
        ...adFields,
        creative: adFields.creative.optional().default(''),
        body: adFields.body.optional().default(''),
        advertiserId: adFields.advertiserId.optional().default(null),
        platforms: adFields.platforms.optional().default([]),
        device: adFields.device.optional().default('all'),
        weight: adFields.weight.optional().default(1),
        endAt: adFields.endAt.optional().default(null),
        price: adFields.price.optional().default(0),
        enabled: adFields.enabled.optional().default(true),
      })
      .openapi('AdCreate'),
    updateName: 'AdUpdate',
    toApi: (r, c) => adToApi(r as typeof ads.$inferSelect, nowOf(c)),
    read: can('ad.read'),
    write: can('ad.edit'),
    security,
    beforeSave: async (tx, body, { c, current }) => {
      const tenant = tenantOf(c);
      const merged = { ...(current ?? {}), ...body } as Parameters<typeof checkAd>[0] & {
        positionId: number;
        advertiserId: number | null;
      };
      checkAd(merged);
      if (body.positionId !== undefined) {
        const [p] = await tx
          .select({ id: adPositions.id })
          .from(adPositions)
          .where(and(eq(adPositions.id, body.positionId), eq(adPositions.tenant, tenant)))
          .for('key share');
        if (!p) throw invalidField('positionId', 'field.notFound');
        // Moving a position's fallback elsewhere would leave the position pointing at another's material.
        if (current && current.positionId !== body.positionId) {
          const [fb] = await tx
            .select({ id: adPositions.id })
            .from(adPositions)
            .where(eq(adPositions.fallbackAdId, current.id));
          if (fb) throw invalidField('positionId', 'ad.isFallback');
        }
      }
      if (body.advertiserId !== undefined && body.advertiserId !== null) {
        const [a] = await tx
          .select({ id: adAdvertisers.id })
          .from(adAdvertisers)
          .where(and(eq(adAdvertisers.id, body.advertiserId), eq(adAdvertisers.tenant, tenant)))
          .for('key share');
        if (!a) throw invalidField('advertiserId', 'field.notFound');
      }
      if (body.platforms)
        await assertKnownPlatforms(tx, tenant, body.platforms, 'platforms', current?.platforms ?? []);
      const out: Record<string, unknown> = { ...body };
      if (body.price !== undefined) out.price = String(body.price);
      if (body.startAt !== undefined) out.startAt = new Date(body.startAt);
      if (body.endAt !== undefined) out.endAt = body.endAt === null ? null : new Date(body.endAt);
      return out;
    },
    beforeDelete: async (tx, row, c) => dropFallbacks(tx, [row.id], nowOf(c)),
    afterWrite: (tx, _row, c) => touchAds(tx, tenantOf(c), nowOf(c)),
    batch: {
      summary: 'Enable, pause or delete materials (admin): all or nothing, one transaction',
      actions: {
        ...switchActions(ads, 'enabled', ['enable', 'pause'], (tx, c) => touchAds(tx, tenantOf(c), nowOf(c))),
        delete: deleteAds,
      },
    },
    summaries: {
      list: 'List ad materials (filters: position, advertiser, type, derived state, expiring within N days, platform, landing URL contains)',
      create: 'Create an ad material (admin): landing URL http(s) only, end after start',
      update: 'Edit an ad material (admin; a stale version is 40900)',
    },
  });
}
