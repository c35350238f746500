import { sql } from 'drizzle-orm';
import { addDays, dayOf } from '../../../common/period';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import { readStatistics } from '../statistics-settings';
import { rollupAttribution } from './attribution';
import { foldDomainDay } from './blocks';
import { timeZoneOf } from './ingest';
import { markRolled } from './report-cache';
import { rollupInsert } from './rollup-insert';

/** Any 64-bit number that is ours: one rollup runner at a time, whatever the number of API instances. */
export const ROLLUP_LOCK = 7_270_772_012;

const ROLLUP_TABLES = [
  'stat_keyword_daily',
  'stat_object_daily',
  'stat_domain_daily',
  'stat_domain_hourly',
  'stat_visit_daily',
  'stat_channel_daily',
];

/**
 * Recomputes one (tenant, day) from its raw events: every rollup row of the day is deleted and inserted again, in the
 * caller's transaction, so a day rolled up twice, or again after a run stopped halfway, never counts an event twice.
 */
export async function rollupDay(
  tx: Executor,
  tenant: number,
  day: string,
  settings: { timeZone: string; attributionDays: number },
) {
  const { timeZone } = settings;
  // The registers stored on insert (migration 0020), computed here only for events stored before it.
  const ev = sql`select *, coalesce(visitor_reg, zg_hll_reg(visitor_hash)) as vreg,
    coalesce(address_reg, zg_hll_reg(address_hash)) as areg from stat_events where tenant = ${tenant} and day = ${day}::date`;
  for (const t of ROLLUP_TABLES)
    await tx.execute(sql`delete from ${sql.raw(t)} where tenant = ${tenant} and day = ${day}::date`);
  await markRolled(tx, tenant, day); // kept report answers over this day are stale from now on

  // First day each visitor was seen, per domain and site-wide (''): re-running a day changes nothing.
  await tx.execute(sql`
    insert into stat_visitors (tenant, domain, visitor, first_day)
    select ${tenant}, d, v, ${day}::date from (
      select domain as d, visitor_hash as v from stat_events where tenant = ${tenant} and day = ${day}::date and type = 'pageview'
      union select '', visitor_hash from stat_events where tenant = ${tenant} and day = ${day}::date and type = 'pageview'
    ) x
    on conflict (tenant, domain, visitor) do update set first_day = least(stat_visitors.first_day, excluded.first_day)`);

  await tx.execute(
    rollupInsert(
      'stat_keyword_daily',
      ['keyword'],
      sql`with e as (select keyword, results, vreg as searchers from (${ev}) x where type = 'search' and keyword <> '')
        select * from e union all select '', results, searchers from e`,
      {
        searches: 'count(*)',
        zero_results: 'count(*) filter (where results = 0)',
        results_sum: 'coalesce(sum(results), 0)',
      },
      ['searchers'],
      tenant,
      day,
    ),
  );

  // Objects; a tag also gets the views and plays of the movies that carry it; object_id 0 is each type's total.
  await tx.execute(
    rollupInsert(
      'stat_object_daily',
      ['object_type', 'object_id'],
      sql`with e as (
          select object_type, object_id, type, amount, vreg as viewers,
            case when type = 'ad_click' then vreg end as clickers
            from (${ev}) x where object_type <> ''
          union all
          select 'tag', l.tag_id, x.type, null, x.vreg, null from (${ev}) x
            join movie_tag_links l on l.movie_id = x.object_id
            where x.object_type = 'movie' and x.type in ('pageview', 'play'))
        select * from e union all select object_type, 0, type, amount, viewers, clickers from e`,
      {
        views: "count(*) filter (where type = 'pageview')",
        plays: "count(*) filter (where type = 'play')",
        clicks: "count(*) filter (where type in ('ad_click', 'tag_click'))",
        impressions: "count(*) filter (where type = 'ad_impression')",
        signups: "count(*) filter (where type = 'signup')",
        recharges: "count(*) filter (where type = 'recharge')",
        recharge_amount: "coalesce(sum(amount) filter (where type = 'recharge'), 0)",
      },
      ['viewers', 'clickers'],
      tenant,
      day,
    ),
  );

  // Domains (and '' for the site): page views, visitors in the bucket, bounces (one page view), new visitors.
  const domainSums = {
    page_views: 'count(*)',
    visits: 'count(*) filter (where nth = 1)',
    bounced: 'count(*) filter (where nth = 1 and pvs = 1)',
    new_visitors: 'count(*) filter (where nth = 1 and fresh)',
  };
  const domainSource = (bucket: string) => sql`
    with e as (select domain, ${sql.raw(bucket)} as bucket, visitor_hash, vreg, areg from (${ev}) x where type = 'pageview'),
    b as (select * from e union all select '', bucket, visitor_hash, vreg, areg from e)
    select b.domain, b.bucket as hour, b.vreg as visitors, b.areg as addresses,
      row_number() over w as nth, count(*) over w as pvs, v.first_day = ${day}::date as fresh
    from b left join stat_visitors v on v.tenant = ${tenant} and v.domain = b.domain and v.visitor = b.visitor_hash
    window w as (partition by b.domain, b.bucket, b.visitor_hash)`;
  await tx.execute(
    rollupInsert(
      'stat_domain_daily',
      ['domain'],
      domainSource('0'),
      domainSums,
      ['visitors', 'addresses'],
      tenant,
      day,
    ),
  );
  await foldDomainDay(tx, tenant, day);
  await tx.execute(
    rollupInsert(
      'stat_domain_hourly',
      ['domain', 'hour'],
      domainSource(`extract(hour from at at time zone '${timeZone.replace(/'/g, "''")}')::smallint`),
      domainSums,
      ['visitors', 'addresses'],
      tenant,
      day,
    ),
  );

  await tx.execute(
    rollupInsert(
      'stat_visit_daily',
      ['domain', 'dimension', 'key'],
      sql`with e as (select * from (${ev}) x where type = 'pageview')
        select domain, 'path' as dimension, path as key, vreg as visitors from e
        union all select domain, 'referrer', referrer, vreg from e
        union all select domain, 'device', device, vreg from e
        union all select domain, 'region', case when country in ('中国', 'China', 'CN') and province not in ('', '0', 'unknown')
          then province else country end, vreg from e
        union all select domain, 'channel', channel, vreg from e`,
      { page_views: 'count(*)' },
      ['visitors'],
      tenant,
      day,
    ),
  );

  await tx.execute(
    rollupInsert(
      'stat_channel_daily',
      ['channel'],
      sql`select channel, type, amount, case when type = 'pageview' then vreg end as visitors from (${ev}) x`,
      {
        page_views: "count(*) filter (where type = 'pageview')",
        plays: "count(*) filter (where type = 'play')",
        ad_impressions: "count(*) filter (where type = 'ad_impression')",
        ad_clicks: "count(*) filter (where type = 'ad_click')",
        signups: "count(*) filter (where type = 'signup')",
        recharges: "count(*) filter (where type = 'recharge')",
        recharge_amount: "coalesce(sum(amount) filter (where type = 'recharge'), 0)",
      },
      ['visitors'],
      tenant,
      day,
    ),
  );
  await rollupAttribution(tx, tenant, day, ev, settings.attributionDays);
}

export interface RollupResult {
  /** False when another runner held the lock: this one did nothing. */
  ran: boolean;
  days: { tenant: number; day: string }[];
  droppedPartitions: string[];
}

/** The raw partitions that exist, by day. */
export async function rawPartitions(db: Executor): Promise<{ name: string; day: string }[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent where p.relname = 'stat_events'`),
  );
  return rows
    .map((r) => ({ name: r.name, m: /^stat_events_p(\d{4})(\d{2})(\d{2})$/.exec(r.name) }))
    .filter((r) => r.m)
    .map((r) => ({ name: r.name, day: `${r.m![1]}-${r.m![2]}-${r.m![3]}` }))
    .sort((a, b) => a.day.localeCompare(b.day));
}

/**
 * The rollup: every day marked since its last rollup is recomputed in its own transaction, each under the rollup's
 * advisory lock (a runner that finds it taken stops: another is at work); then raw partitions older than the longest
 * retention of any tenant are dropped (after their last rollup: a dropped day is never recomputed, its rollups stay),
 * and so are the attribution touches older than the first kept day less the tenant's attribution window.
 * `stopAfter` ends the run after that many days (tests use it to stop a run halfway).
 */
export async function runRollup(
  db: Db,
  opts: { now: Date; defaultTenant: number; stopAfter?: number },
): Promise<RollupResult> {
  const result: RollupResult = { ran: true, days: [], droppedPartitions: [] };
  const dirty = rowsOf<{ tenant: number; day: string }>(
    await db.execute(sql`select tenant, day::text as day from stat_dirty_days order by day, tenant`),
  );
  // Each tenant's time zone and statistics settings, read once per run.
  const zones = new Map<number, string>();
  const retention = new Map<number, number>();
  const attribution = new Map<number, number>();
  const settingsOf = async (tenant: number) => {
    if (!zones.has(tenant)) {
      zones.set(tenant, await timeZoneOf(db, tenant));
      const s = await readStatistics(db, tenant);
      retention.set(tenant, s.rawRetentionDays);
      attribution.set(tenant, s.attributionDays);
    }
    return {
      timeZone: zones.get(tenant)!,
      days: retention.get(tenant)!,
      attributionDays: attribution.get(tenant)!,
    };
  };
  for (const { tenant, day } of dirty) {
    if (opts.stopAfter !== undefined && result.days.length >= opts.stopAfter) return result;
    const { timeZone, attributionDays } = await settingsOf(Number(tenant));
    const got = await db.transaction(async (tx) => {
      if (!(await tryLock(tx))) return false;
      const gone = await tx.execute(
        sql`delete from stat_dirty_days where tenant = ${tenant} and day = ${day}::date returning day`,
      );
      if (rowsOf(gone).length) await rollupDay(tx, Number(tenant), day, { timeZone, attributionDays });
      return true;
    });
    if (!got) return { ...result, ran: false };
    result.days.push({ tenant: Number(tenant), day });
  }

  // Retention: the longest of any tenant's settings (partitions hold every tenant's events of a day).
  await settingsOf(opts.defaultTenant);
  const keep = Math.max(...retention.values());
  const tz = zones.get(opts.defaultTenant)!;
  const cut = addDays(dayOf(opts.now, tz), -(keep - 1) - 1); // the newest day that may go
  const old = (await rawPartitions(db)).filter((p) => p.day <= cut);
  for (const p of old) {
    const got = await db.transaction(async (tx) => {
      if (!(await tryLock(tx))) return false;
      await tx.execute(sql`delete from stat_dirty_days where day = ${p.day}::date`);
      await tx.execute(sql.raw(`drop table if exists ${p.name}`));
      return true;
    });
    if (!got) return { ...result, ran: false };
    result.droppedPartitions.push(p.name);
  }

  // Touches (attribution) no rollup can read any more: a day is rolled up again only while its raw events are kept
  // (newer than `cut`), and its conversions look back over the tenant's attribution window from that day.
  const touchTenants = rowsOf<{ tenant: number }>(
    await db.execute(sql`with recursive t as (select min(tenant) as tenant from stat_touches
        union all select (select min(tenant) from stat_touches where tenant > t.tenant) from t where t.tenant is not null)
      select tenant from t where tenant is not null`),
  );
  for (const { tenant } of touchTenants) {
    const { attributionDays } = await settingsOf(Number(tenant));
    const got = await db.transaction(async (tx) => {
      if (!(await tryLock(tx))) return false;
      await tx.execute(
        sql`delete from stat_touches where tenant = ${tenant} and day <= ${addDays(cut, -attributionDays)}::date`,
      );
      return true;
    });
    if (!got) return { ...result, ran: false };
  }
  return result;
}

async function tryLock(tx: Executor): Promise<boolean> {
  const [row] = rowsOf<{ ok: boolean }>(
    await tx.execute(sql`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as ok`),
  );
  return row.ok === true || (row.ok as unknown) === 't';
}
