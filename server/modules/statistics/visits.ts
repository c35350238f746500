import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';

/**
 * The figures of a (tenant, day) that need each visitor's page views, grouped in SQL (issue #48): each visitor's first
 * day per domain and site-wide ('' : `stat_visitors`), and the domains' visits (visitors in the day or hour), bounces
 * (one page view in it) and new visitors (first seen this day), per day and per hour. Grouping in the database keeps the
 * process's memory whatever the number of visitors (a day's map of them held about a kilobyte each, and anyone with
 * the browser key can make up visitors); the database's hash aggregates spill to disk past `work_mem`.
 *
 * `events` (a condition on `stat_events e`) names the day's events the figures count: those the day's other figures
 * were folded from (day-figures.ts), so that both agree. The day's rows of `stat_domain_daily` and `_hourly` exist by
 * then (written with their page views and sketches); this sets their three counts where they changed. Run in the day's
 * transaction, under the rollup's lock: only the rollup writes `stat_visitors`, so the visitors not found cannot have
 * been stored meanwhile (inserted without `on conflict`).
 *
 * Returns the later days some visitor was counted new on whose first day moved here: the caller marks them for a whole
 * recompute (their new visitors change).
 */
export async function rollupVisits(
  t: Executor,
  tenant: number,
  day: string,
  timeZone: string,
  events: SQL,
): Promise<string[]> {
  const d = sql`${day}::date`;
  const rows = rowsOf<{ day: string }>(
    await t.execute(sql`with hours as materialized (
        select domain, visitor_hash as v, extract(hour from at at time zone ${timeZone})::int as h, count(*)::int as n
        from stat_events e where e.tenant = ${tenant} and e.day = ${d} and e.type = 'pageview' and ${events}
        group by 1, 2, 3),
      vh as materialized (select domain, v, h, n from hours union all select '', v, h, sum(n)::int from hours group by v, h),
      known as materialized (select p.domain, p.v, p.n, s.first_day
        from (select domain, v, sum(n)::int as n from vh group by 1, 2) p
        left join stat_visitors s on s.tenant = ${tenant} and s.domain = p.domain and s.visitor = p.v),
      added as (insert into stat_visitors (tenant, domain, visitor, first_day)
        select ${tenant}, domain, v, ${d} from known where first_day is null order by domain, v),
      earlier as (update stat_visitors s set first_day = ${d} from known k
        where k.first_day > ${d} and s.tenant = ${tenant} and s.domain = k.domain and s.visitor = k.v),
      daily as (update stat_domain_daily r set visits = x.visits, bounced = x.bounced, new_visitors = x.fresh
        from (select domain, count(*)::int as visits, count(*) filter (where n = 1)::int as bounced,
            count(*) filter (where first_day is null or first_day >= ${d})::int as fresh
          from known group by domain) x
        where r.tenant = ${tenant} and r.day = ${d} and r.domain = x.domain
          and (r.visits, r.bounced, r.new_visitors) is distinct from (x.visits, x.bounced, x.fresh)),
      hourly as (update stat_domain_hourly r set visits = x.visits, bounced = x.bounced, new_visitors = x.fresh
        from (select vh.domain, vh.h, count(*)::int as visits, count(*) filter (where vh.n = 1)::int as bounced,
            count(*) filter (where k.first_day is null or k.first_day >= ${d})::int as fresh
          from vh join known k on k.domain = vh.domain and k.v = vh.v group by 1, 2) x
        where r.tenant = ${tenant} and r.domain = x.domain and r.day = ${d} and r.hour = x.h
          and (r.visits, r.bounced, r.new_visitors) is distinct from (x.visits, x.bounced, x.fresh))
    select distinct first_day::text as day from known where first_day > ${d} order by 1`),
  );
  return rows.map((r) => String(r.day).slice(0, 10));
}
