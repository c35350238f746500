import { OpenAPIHono, z } from '@hono/zod-openapi';
import { ilike, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { DOMAIN_STATUSES, runwayDays } from '../../../common/domain';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { jsonResponse, ok } from '../../core/envelope';
import { ApiError } from '../../core/errors';
import { crudResource } from '../../core/resource';
import { createRoute } from '../../core/route';
import { containsPattern, iso } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { bumpResolveVersion, dayOf, liveDomain, readSettings, toUnicode } from './model';
import { domainPools } from './schema';

const tags = ['domain pools'];

export const Pool = z
  .object({
    id: z.number(),
    name: z.string(),
    note: z.string(),
    version: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('DomainPool');

const fields = {
  name: z.string().trim().min(1).max(64),
  note: z.string().trim().max(256),
};

const Counts = z.object(Object.fromEntries(DOMAIN_STATUSES.map((s) => [s, z.number()])));

const Runway = z
  .object({
    pools: z.array(
      z.object({
        id: z.number().nullable(),
        name: z.string().nullable(),
        counts: Counts,
        retired30: z.number().openapi({ description: 'Domains retired in the last 30 days' }),
        retiredPerDay: z.number(),
        daysLeft: z
          .number()
          .nullable()
          .openapi({ description: 'standby ÷ retired per day; null: none retired' }),
        expiring: z.number(),
        certExpiring: z.number(),
      }),
    ),
    warnDays: z.number(),
    expiring: z.array(
      z.object({
        id: z.number(),
        hostname: z.string(),
        unicode: z.string(),
        poolId: z.number().nullable(),
        status: z.string(),
        expiresOn: z.string().nullable(),
        certExpiresOn: z.string().nullable(),
      }),
    ),
  })
  .openapi('DomainRunway');

const runwayRoute = createRoute({
  method: 'get',
  path: '/runway',
  tags,
  security,
  summary:
    'Per pool: domains by status, retired in the last 30 days, days of standby left at that pace, and the domains whose registration or certificate expires within the warning horizon',
  middleware: can('domain.read'),
  responses: jsonResponse(Runway),
});

const Carousel = z
  .object({
    pools: z.array(
      z.object({
        id: z.number(),
        name: z.string(),
        totalWeight: z.number().openapi({ description: 'Sum of the weights of all its live domains' }),
        count: z.number().openapi({ description: 'Its live domains (the heaviest `perPool` are listed)' }),
        domains: z.array(
          z.object({
            id: z.number(),
            hostname: z.string(),
            unicode: z.string(),
            role: z.string(),
            weight: z.number(),
            share: z.number().openapi({ description: 'Percent of the pool’s traffic' }),
            version: z.number(),
          }),
        ),
      }),
    ),
    perPool: z.number(),
  })
  .openapi('DomainCarousel');

const carouselRoute = createRoute({
  method: 'get',
  path: '/carousel',
  tags,
  security,
  summary:
    "Each pool's live domains (those the resolve endpoint answers) with their weights as a percentage split of its traffic; a pool with none is listed too",
  middleware: can('domain.read'),
  responses: jsonResponse(Carousel),
});

/** A pool's heaviest live domains shown by the carousel; its count, total weight and shares are over all of them. */
export const CAROUSEL_PER_POOL = 100;

/**
 * Every pool of the tenant with its live domains (those the resolve endpoint answers), each one's share of the
 * pool's traffic (weight ÷ the pool's total weight, in percent), the heaviest `CAROUSEL_PER_POOL` listed; a pool
 * with no live domain is listed too (its visitors get nothing).
 */
export async function carousel(db: Executor, tenant: number, now: Date) {
  const rows = rowsOf<Record<string, any>>(
    await db.execute(sql`
      with live as (
        select d.pool_id, d.id, d.hostname, d.role, d.weight, d.version,
               sum(d.weight) over w as total_weight, count(*) over w as live_count,
               row_number() over (partition by d.pool_id order by d.weight desc, d.id) as rank
        from domains d
        where d.tenant = ${tenant} and d.pool_id is not null and ${liveDomain('d', dayOf(now))}
        window w as (partition by d.pool_id)
      )
      select p.id as pool_id, p.name, l.id, l.hostname, l.role, l.weight, l.version, l.total_weight, l.live_count
      from domain_pools p left join live l on l.pool_id = p.id and l.rank <= ${CAROUSEL_PER_POOL}
      where p.tenant = ${tenant}
      order by p.name, l.rank`),
  );
  const pools = new Map<
    number,
    { id: number; name: string; totalWeight: number; count: number; domains: any[] }
  >();
  for (const r of rows) {
    const id = Number(r.pool_id);
    if (!pools.has(id))
      pools.set(id, {
        id,
        name: r.name,
        totalWeight: Number(r.total_weight ?? 0),
        count: Number(r.live_count ?? 0),
        domains: [],
      });
    const p = pools.get(id)!;
    if (r.id === null) continue;
    p.domains.push({
      id: Number(r.id),
      hostname: r.hostname,
      unicode: toUnicode(r.hostname),
      role: r.role,
      weight: Number(r.weight),
      share: p.totalWeight ? Math.round((Number(r.weight) / p.totalWeight) * 1000) / 10 : 0,
      version: Number(r.version),
    });
  }
  return [...pools.values()];
}

/** The runway of every pool of the tenant (and of the domains in no pool). */
export async function runway(db: Executor, tenant: number, now: Date) {
  const settings = await readSettings(db, tenant);
  const warnDays = settings.expiryWarnDays;
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const horizon = new Date(now.getTime() + warnDays * 86_400_000).toISOString().slice(0, 10);
  const rows = rowsOf<Record<string, any>>(
    await db.execute(sql`
      select p.id, p.name, d.*
      from (select pool_id,
                   count(*) filter (where status = 'active')::int as active,
                   count(*) filter (where status = 'standby')::int as standby,
                   count(*) filter (where status = 'blocked')::int as blocked,
                   count(*) filter (where status = 'expired')::int as expired,
                   count(*) filter (where status = 'retired')::int as retired,
                   count(*) filter (where status = 'retired' and retired_at >= ${since})::int as retired30,
                   count(*) filter (where status <> 'retired' and expires_on <= ${horizon})::int as expiring,
                   count(*) filter (where status <> 'retired' and cert_expires_on <= ${horizon})::int as cert_expiring
            from domains where tenant = ${tenant} group by pool_id) d
      full join (select id, name from domain_pools where tenant = ${tenant}) p on p.id = d.pool_id
      order by p.name nulls last`),
  );
  const pools = rows.map((r) => {
    const counts = Object.fromEntries(DOMAIN_STATUSES.map((s) => [s, Number(r[s] ?? 0)]));
    const retired30 = Number(r.retired30 ?? 0);
    return {
      id: r.id === null ? null : Number(r.id),
      name: r.name ?? null,
      counts,
      retired30,
      retiredPerDay: Math.round((retired30 / 30) * 100) / 100,
      daysLeft: runwayDays(counts.standby, retired30),
      expiring: Number(r.expiring ?? 0),
      certExpiring: Number(r.cert_expiring ?? 0),
    };
  });
  const expiring = rowsOf<Record<string, any>>(
    await db.execute(sql`
      select id, hostname, pool_id, status, expires_on::text as expires_on, cert_expires_on::text as cert_expires_on
      from domains
      where tenant = ${tenant} and status <> 'retired' and (expires_on <= ${horizon} or cert_expires_on <= ${horizon})
      order by least(coalesce(expires_on, cert_expires_on), coalesce(cert_expires_on, expires_on)), id
      limit 100`),
  ).map((r) => ({
    id: Number(r.id),
    hostname: r.hostname,
    unicode: toUnicode(r.hostname),
    poolId: r.pool_id === null ? null : Number(r.pool_id),
    status: r.status,
    expiresOn: r.expires_on ?? null,
    certExpiresOn: r.cert_expires_on ?? null,
  }));
  return { pools, warnDays, expiring };
}

/** Pools (`/domain/pool`): every operator reads them and their runway; admins create, rename and delete them. */
export function poolRoutes() {
  const app = crudResource({
    tag: tags[0],
    table: domainPools,
    schema: Pool,
    scope: { field: 'tenant', value: tenantOf },
    sorts: { name: domainPools.name, id: domainPools.id, createdAt: domainPools.createdAt },
    defaultSort: 'name',
    filters: { q: z.string().trim().max(64).optional() },
    where: (q) => [q.q ? ilike(domainPools.name, containsPattern(q.q)) : undefined],
    fields,
    create: z.object({ ...fields, note: fields.note.optional().default('') }).openapi('DomainPoolCreate'),
    updateName: 'DomainPoolUpdate',
    toApi: (r) => ({
      id: r.id,
      name: r.name,
      note: r.note,
      version: r.version,
      createdAt: iso(r.createdAt) as string,
      updatedAt: iso(r.updatedAt) as string,
    }),
    read: can('domain.read'),
    write: can('domain.settings'),
    security,
    unique: 'name',
    beforeDelete: async (tx, row) => {
      const [{ n }] = rowsOf<{ n: number }>(
        await tx.execute(sql`select count(*)::int as n from domains where pool_id = ${row.id}`),
      );
      if (Number(n)) throw new ApiError(Code.CONFLICT, 'domain.pool.notEmpty', { count: Number(n) });
    },
    afterWrite: async (tx, _row, c) => bumpResolveVersion(tx, tenantOf(c)),
    summaries: {
      create: 'Create a pool (admin)',
      update: 'Rename a pool (admin; a stale version is 40900)',
      remove: 'Delete an empty pool (admin; one that still holds domains is 40900)',
    },
  });

  return app;
}

/** The pools at a glance (mounted at /admin/domain/overview): runway and expiry warnings, the carousel's split. */
export function overviewRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(runwayRoute, async (c) =>
    ok(c, await runway(c.get('deps').db, tenantOf(c), c.get('deps').clock.now())),
  );

  app.openapi(carouselRoute, async (c) => {
    const { db, clock } = c.get('deps');
    const pools = await carousel(db, tenantOf(c), clock.now());
    return ok(c, { pools, perPool: CAROUSEL_PER_POOL });
  });
  return app;
}
