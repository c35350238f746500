import { OpenAPIHono, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { cors } from 'hono/cors';
import { Code } from '../../../common/codes';
import { CHANNEL_PATTERN } from '../../../common/domain';
import type { AppEnv } from '../../core/context';
import { jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField } from '../../core/errors';
import { entry } from '../../core/maps';
import { createRoute } from '../../core/route';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { requireSiteKey, SITE_KEY_HEADER, siteTenantOf } from '../site/routes';
import { dayOf, liveDomain, toUnicode } from './model';

/** A live domain as the picker holds it: its weight and a per-domain salt for the visitor hash. */
export interface Live {
  id: number;
  hostname: string;
  weight: number;
  salt: number;
}

/** 32-bit FNV-1a of a string. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finaliser: a well-mixed 32 bits of two inputs. */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Weighted rendezvous hashing: each live domain scores −weight / ln(u), u a uniform number from the visitor and
 * the domain; the highest wins. Each domain wins with probability weight ÷ total weight, a visitor keeps the same
 * domain while it stays live (removing or blocking another domain never moves them), and a visitor of a domain
 * that goes away moves to the next best, spreading that domain's visitors by weight.
 */
export function pickDomain(live: readonly Live[], visitor: string): Live | undefined {
  const v = hash32(visitor);
  let best: Live | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const d of live) {
    if (d.weight <= 0) continue;
    const u = (mix(v, d.salt) + 0.5) / 4294967296;
    const score = -d.weight / Math.log(u);
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

interface Cached {
  version: number;
  /** The day the list was read for: a registration that expires overnight leaves it the next day. */
  day: string;
  live: Live[];
  poolId: number;
}
/**
 * Per instance and database: tenant + pool (+ channel) → the live list at a resolve version. Bounded (oldest out
 * first).
 */
const caches = new WeakMap<object, Map<string, Cached>>();
const MAX_CACHED = 10_000;

async function liveOf(
  db: Executor,
  tenant: number,
  pool: string,
  channel: string | undefined,
  today: string,
) {
  const byId = /^\d{1,9}$/.test(pool);
  const rows = rowsOf<{ id: number; hostname: string; weight: number; pool_id: number }>(
    await db.execute(sql`
      select d.id, d.hostname, d.weight, p.id as pool_id
      from domain_pools p join domains d on d.pool_id = p.id
      where p.tenant = ${tenant} and d.tenant = ${tenant} and ${liveDomain('d', today)}
        and ${byId ? sql`p.id = ${Number(pool)}` : sql`p.name = ${pool}`}
        ${channel ? sql`and d.channel = ${channel}` : sql``}
      order by d.id`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    hostname: r.hostname,
    weight: Number(r.weight),
    salt: hash32(`d${r.id}`),
    poolId: Number(r.pool_id),
  }));
}

/** The tenant's resolve version: one primary-key read per request, so every instance sees a change at once. */
async function versionOf(db: Executor, tenant: number) {
  const [r] = rowsOf<{ v: string | number }>(
    await db.execute(sql`select resolve_version as v from domain_settings where tenant = ${tenant}`),
  );
  return r ? Number(r.v) : 0;
}

/** Resolves a visitor to one of a pool's live domains (cached per instance, keyed by the database's version). */
export async function resolveDomain(
  db: Executor,
  tenant: number,
  pool: string,
  visitor: string,
  channel: string | undefined,
  now: Date,
) {
  const day = dayOf(now);
  const version = await versionOf(db, tenant);
  const cache = entry(caches, db, () => new Map<string, Cached>());
  const key = `${tenant}\u0000${pool}\u0000${channel ?? ''}`;
  let hit = cache.get(key);
  if (!hit || hit.version !== version || hit.day !== day) {
    const live = await liveOf(db, tenant, pool, channel, day);
    hit = { version, day, live, poolId: live[0]?.poolId ?? 0 };
    cache.delete(key);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, hit);
  }
  const d = pickDomain(hit.live, visitor);
  return d ? { ...d, poolId: hit.poolId, version } : undefined;
}

const Query = z.object({
  pool: z.string().trim().min(1).max(64).openapi({ description: 'The pool, by id or by name' }),
  visitor: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .openapi({ description: 'A stable visitor id (cookie, device id)' }),
  channel: z.string().trim().regex(CHANNEL_PATTERN).optional().openapi({
    description: "Only the pool's domains bound to this channel (an agent's promotion code)",
  }),
});

const Answer = z
  .object({ id: z.number(), hostname: z.string(), unicode: z.string(), poolId: z.number() })
  .openapi('ResolvedDomain');

const resolveRoute = createRoute({
  method: 'get',
  path: '/resolve',
  tags: ['site (public)'],
  security: [{ SiteKey: [] }],
  summary: "A live domain of a pool for a visitor (public: the tenant's Site-Key)",
  description: [
    'Weighted among the pool’s active domains (weight ÷ total), the same domain for a visitor while it stays live,',
    'never a standby, blocked, expired or retired one, nor one whose registration has run out. A pool with no live domain is 40400. Cached per instance,',
    'invalidated by a version every change bumps in the database. CORS is open (`*`).',
  ].join(' '),
  request: { query: Query },
  responses: jsonResponse(Answer),
});

/** The site's resolve endpoint, mounted at /app/site/domains (beside the site API, with the same key). */
export function resolveRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  const open = cors({
    origin: '*',
    allowMethods: ['GET', 'OPTIONS'],
    allowHeaders: [SITE_KEY_HEADER, 'Accept-Language'],
    maxAge: 86_400,
  });
  app.use('*', (c, next) => {
    if (c.req.method !== 'OPTIONS') return open(c, () => requireSiteKey(c, next) as Promise<void>);
    return c.req.header('access-control-request-method') ? open(c, next) : requireSiteKey(c, next);
  });
  app.openapi(resolveRoute, async (c) => {
    const { pool, visitor, channel } = c.req.valid('query');
    for (const k of Object.keys(c.req.queries()))
      if (!(k in Query.shape)) throw invalidField(k, 'field.unknown');
    const { db, clock } = c.get('deps');
    const d = await resolveDomain(db, siteTenantOf(c), pool, visitor, channel, clock.now());
    if (!d) throw new ApiError(Code.NOT_FOUND, 'domain.resolve.none');
    c.header('Cache-Control', 'private, no-store');
    return ok(c, { id: d.id, hostname: d.hostname, unicode: toUnicode(d.hostname), poolId: d.poolId });
  });
  return app;
}
