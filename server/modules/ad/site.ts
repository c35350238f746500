import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { AD_DEVICES, AD_ROTATIONS, AD_TYPES } from '../../../common/ad';
import type { AppEnv } from '../../core/context';
import { envelopeOf, ok } from '../../core/envelope';
import { createRoute } from '../../core/route';
import { intQuery } from '../../core/shared';
import type { Executor } from '../../db/types';
import {
  etagMatches,
  freshUntilBoundary,
  requireSiteKey,
  SITE_KEY_HEADER,
  SITE_MAX_AGE,
  siteGetCors,
  siteTenantOf,
} from '../site/routes';
import { siteState } from '../site/schema';
import { adPositions, adSiteState, ads } from './schema';

const Material = z.object({
  id: z.number(),
  title: z.string(),
  type: z.enum(AD_TYPES),
  creative: z.string(),
  body: z.string(),
  landingUrl: z.string(),
  weight: z.number(),
});
const SitePosition = z.object({
  key: z.string(),
  name: z.string(),
  width: z.number(),
  height: z.number(),
  type: z.enum(AD_TYPES),
  device: z.enum(AD_DEVICES),
  rotation: z.enum(AD_ROTATIONS),
  ads: z.array(Material),
  fallback: Material.nullable(),
});
const SiteAds = z.object({ positions: z.array(SitePosition) }).openapi('PublicAds');

const route = createRoute({
  method: 'get',
  path: '/',
  tags: ['site (public)'],
  security: [{ SiteKey: [] }],
  summary:
    "The enabled positions and each one's live materials on a platform (and device), with its fallback",
  description: [
    'Public: the tenant is named by its `Site-Key` (40100 otherwise). A material is live when enabled, started and',
    'not ended, on the platform (or on every platform when it names none) and the device (or `all`). Ordered',
    'positions list their materials by weight (highest first), weighted ones carry the weight the site draws by.',
    'Cached like `GET /app/site/config`: `ETag` from the site version and the last ad start or end passed,',
    `\`Cache-Control: public, max-age\` at most ${SITE_MAX_AGE} s and never past the next start or end; a matching`,
    '`If-None-Match` is 304 after one read of the small state rows.',
  ].join(' '),
  request: {
    headers: z.object({ 'site-key': z.string().optional(), 'if-none-match': z.string().optional() }),
    query: z.object({
      platform: intQuery(0, 9999),
      device: z.enum(['mobile', 'desktop']).optional(),
    }),
  },
  responses: {
    200: {
      description: 'Envelope `{code, msg, data}`',
      content: { 'application/json': { schema: envelopeOf(SiteAds) } },
    },
    304: { description: 'Not modified' },
  },
});

/** The site version and ad boundaries of a tenant: one read. */
async function headOf(db: Executor, tenant: number) {
  const [row] = await db
    .select({ version: siteState.siteVersion, boundaries: adSiteState.boundaries })
    .from(siteState)
    .leftJoin(adSiteState, eq(adSiteState.tenant, siteState.tenant))
    .where(eq(siteState.tenant, tenant));
  return { version: row?.version ?? 0, boundaries: (row?.boundaries ?? []).map((d) => new Date(d)) };
}

/** What the ETag and freshness of the ads answer are made of at `now`. */
export function adsFreshness(
  head: { version: number; boundaries: Date[] },
  tenant: number,
  platform: number,
  device: string,
  locale: string,
  now: Date,
) {
  return freshUntilBoundary(
    head.boundaries,
    now,
    `ads-${tenant.toString(36)}-${head.version.toString(36)}`,
    `${platform}-${device}-${locale}`,
  );
}

/** The live materials of the tenant's enabled positions on a platform and device at `now`. */
export async function liveAds(
  db: Executor,
  tenant: number,
  platform: number,
  device: string | undefined,
  now: Date,
) {
  const positions = await db
    .select()
    .from(adPositions)
    .where(
      and(
        eq(adPositions.tenant, tenant),
        eq(adPositions.enabled, true),
        device ? sql`${adPositions.device} in ('all', ${device})` : undefined,
      ),
    )
    .orderBy(asc(adPositions.id));
  if (!positions.length) return [];
  const material = {
    id: ads.id,
    title: ads.title,
    type: ads.type,
    creative: ads.creative,
    body: ads.body,
    landingUrl: ads.landingUrl,
    weight: ads.weight,
    positionId: ads.positionId,
  };
  const onPlatform = sql`(${ads.platforms} = '{}'::integer[] or ${ads.platforms} @> array[${platform}::integer])`;
  const onDevice = device ? sql`${ads.device} in ('all', ${device})` : undefined;
  const live = await db
    .select(material)
    .from(ads)
    .where(
      and(
        eq(ads.tenant, tenant),
        eq(ads.enabled, true),
        lte(ads.startAt, now),
        or(isNull(ads.endAt), gt(ads.endAt, now)),
        onPlatform,
        onDevice,
      ),
    )
    .orderBy(desc(ads.weight), asc(ads.id));
  const byId = new Map(live.map((a) => [a.id, a]));
  const strip = ({ positionId: _p, ...m }: (typeof live)[number]) => m;
  return positions.map((p) => {
    const fallback = p.fallbackAdId ? byId.get(p.fallbackAdId) : undefined;
    return {
      key: p.key,
      name: p.name,
      width: p.width,
      height: p.height,
      type: p.type,
      device: p.device,
      rotation: p.rotation,
      ads: live.filter((a) => a.positionId === p.id && a.id !== p.fallbackAdId).map(strip),
      fallback: fallback ? strip(fallback) : null,
    };
  });
}

/** `GET /app/site/ads`: the site reads its positions' live materials (with the Site-Key, cached). */
export function siteAdsRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', siteGetCors);
  app.use('*', requireSiteKey);
  app.openapi(route, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = siteTenantOf(c);
    const { platform, device } = c.req.valid('query');
    const now = clock.now();
    const { etag, cacheControl } = adsFreshness(
      await headOf(db, tenant),
      tenant,
      platform,
      device ?? 'any',
      c.get('locale'),
      now,
    );
    c.header('Vary', `${SITE_KEY_HEADER}, Accept-Language`);
    c.header('ETag', etag);
    c.header('Cache-Control', cacheControl);
    if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304) as any;
    return ok(c, { positions: await liveAds(db, tenant, platform, device, now) });
  });
  return app;
}
