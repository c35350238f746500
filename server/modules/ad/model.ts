import { z } from '@hono/zod-openapi';
import { and, eq, gt, isNotNull, lte, or, type SQL, sql } from 'drizzle-orm';
import {
  AD_DEVICES,
  AD_PRICING,
  AD_ROTATIONS,
  AD_STATES,
  AD_TYPES,
  type AdState,
  adState,
  isLandingUrl,
  MAX_URL,
} from '../../../common/ad';
import { invalidField } from '../../core/errors';
import { iso } from '../../core/shared';
import { isHttpUrl } from '../../core/url';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { imageField, isImagePath } from '../images/paths';
import { instant } from '../notices/model';
import { type adPositions, ads } from './schema';

type AdRow = typeof ads.$inferSelect;
type PositionRow = typeof adPositions.$inferSelect;

/** The state filter in SQL at the server's `now` (the same rule as `adState`). */
export function stateWhere(state: AdState, now: Date): SQL | undefined {
  switch (state) {
    case 'paused':
      return eq(ads.enabled, false);
    case 'scheduled':
      return and(eq(ads.enabled, true), gt(ads.startAt, now));
    case 'live':
      return and(
        eq(ads.enabled, true),
        lte(ads.startAt, now),
        or(sql`${ads.endAt} is null`, gt(ads.endAt, now)),
      );
    case 'expired':
      return and(eq(ads.enabled, true), isNotNull(ads.endAt), lte(ads.endAt, now));
  }
}

/** Live or scheduled, with an end within `days` days of `now`. */
export const expiringWhere = (days: number, now: Date) =>
  and(eq(ads.enabled, true), gt(ads.endAt, now), lte(ads.endAt, new Date(now.getTime() + days * 86_400_000)));

export const Ad = z
  .object({
    id: z.number(),
    title: z.string(),
    type: z.enum(AD_TYPES),
    creative: z
      .string()
      .openapi({ description: 'An uploaded image path (encrypted), or an http(s) URL (video)' }),
    body: z.string(),
    landingUrl: z.string(),
    positionId: z.number(),
    advertiserId: z.number().nullable(),
    platforms: z.array(z.number()),
    device: z.enum(AD_DEVICES),
    weight: z.number(),
    startAt: z.string(),
    endAt: z.string().nullable(),
    pricing: z.enum(AD_PRICING),
    price: z.number(),
    enabled: z.boolean(),
    state: z.enum(AD_STATES).openapi({ description: 'Derived from the schedule and `enabled`' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('Ad');

export const adToApi = (r: AdRow, now: Date): z.infer<typeof Ad> => ({
  id: r.id,
  title: r.title,
  type: r.type,
  creative: r.creative,
  body: r.body,
  landingUrl: r.landingUrl,
  positionId: r.positionId,
  advertiserId: r.advertiserId,
  platforms: (r.platforms ?? []).map(Number),
  device: r.device,
  weight: r.weight,
  startAt: iso(r.startAt) as string,
  endAt: iso(r.endAt),
  pricing: r.pricing,
  price: Number(r.price),
  enabled: r.enabled,
  state: adState(r, now),
  createdAt: iso(r.createdAt) as string,
  updatedAt: iso(r.updatedAt) as string,
  version: r.version,
});

const refId = z.number().int().positive().max(2_147_483_647);

export const landingUrl = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL)
  .refine(isLandingUrl, { params: { key: 'field.httpUrl' } });

export const adFields = {
  title: z.string().trim().min(1).max(100),
  type: z.enum(AD_TYPES),
  creative: imageField(1024),
  body: z.string().trim().max(500),
  landingUrl,
  positionId: refId,
  advertiserId: refId.nullable(),
  platforms: z
    .array(z.number().int().min(0).max(9999))
    .max(50)
    .refine((a) => new Set(a).size === a.length, { params: { key: 'field.duplicate' } }),
  device: z.enum(AD_DEVICES),
  weight: z.number().int().min(1).max(1000),
  startAt: instant,
  endAt: instant.nullable(),
  pricing: z.enum(AD_PRICING),
  price: z
    .number()
    .min(0)
    .max(99_999_999)
    .refine((n) => Math.round(n * 100) === n * 100 || Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
      params: { key: 'ad.priceCents' },
    }),
  enabled: z.boolean(),
};

/**
 * A whole material as it will be stored (a create, or an update merged over its row): an image or pop-up needs an
 * image, a pre-roll a video URL (http(s), not an upload), a text ad its words; the end is after the start. 40000
 * naming the field otherwise.
 */
export function checkAd(a: {
  type: string;
  creative: string;
  body: string;
  startAt: string | Date;
  endAt: string | Date | null;
}) {
  if (a.type === 'text') {
    if (!a.body.trim()) throw invalidField('body', 'field.required');
  } else if (a.type === 'video') {
    if (!isHttpUrl(a.creative)) throw invalidField('creative', 'ad.videoUrl');
  } else if (!a.creative) throw invalidField('creative', 'field.required');
  else if (!isImagePath(a.creative) && !isHttpUrl(a.creative)) throw invalidField('creative', 'field.image');
  if (a.endAt !== null && new Date(a.endAt).getTime() <= new Date(a.startAt).getTime())
    throw invalidField('endAt', 'ad.endBeforeStart');
}

export const Position = z
  .object({
    id: z.number(),
    name: z.string(),
    key: z.string(),
    width: z.number(),
    height: z.number(),
    type: z.enum(AD_TYPES),
    device: z.enum(AD_DEVICES),
    rotation: z.enum(AD_ROTATIONS),
    fallbackAdId: z.number().nullable(),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('AdPosition');

export const positionToApi = (r: PositionRow) => ({
  id: r.id,
  name: r.name,
  key: r.key,
  width: r.width,
  height: r.height,
  type: r.type,
  device: r.device,
  rotation: r.rotation,
  fallbackAdId: r.fallbackAdId,
  enabled: r.enabled,
  createdAt: iso(r.createdAt) as string,
  updatedAt: iso(r.updatedAt) as string,
  version: r.version,
});

export const positionFields = {
  name: z.string().trim().min(1).max(64),
  key: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((v) => /^[a-z0-9][a-z0-9_-]*$/.test(v), { params: { key: 'ad.positionKey' } }),
  width: z.number().int().min(0).max(10_000),
  height: z.number().int().min(0).max(10_000),
  type: z.enum(AD_TYPES),
  device: z.enum(AD_DEVICES),
  rotation: z.enum(AD_ROTATIONS),
  fallbackAdId: refId.nullable(),
  enabled: z.boolean(),
};

/** The future instants at which one of the tenant's enabled ads starts or ends (the site answer's boundaries). */
export async function adBoundaries(db: Executor, tenant: number, now: Date): Promise<Date[]> {
  const rows = await db.execute(sql`
    select t from (
      select start_at as t from ads where tenant = ${tenant} and enabled and start_at > ${now}
      union select end_at from ads where tenant = ${tenant} and enabled and end_at > ${now}
    ) x order by t limit 500`);
  return rowsOf<{ t: Date | string }>(rows).map((r) => new Date(r.t));
}
