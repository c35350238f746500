import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';

/** What a rollup of the visits did: the later days to recompute whole, and the page views it grouped. */
export interface VisitsRolled {
  /** Later days some visitor was counted new on whose first day moved here: the caller marks them for a whole recompute. */
  moved: string[];
  /** The page views the statement grouped: the day's, or the new batches' visitors' alone (what a test can check). */
  read: number;
}

/**
 * The figures of a (tenant, day) that need each visitor's page views, grouped in SQL (issue #48): each visitor's first
 * day per domain and site-wide ('' : `stat_visitors`), and the domains' visits (visitors in the day or hour), bounces
 * (one page view in it) and new visitors (first seen this day), per day and per hour. Grouping in the database keeps the
 * process's memory whatever the number of visitors (a day's map of them held about a kilobyte each, and anyone with
 * the browser key can make up visitors); the database's hash aggregates spill to disk past `work_mem`.
 *
 * `events` (a condition on `stat_events e`) names the day's events the figures count: those the day's other figures
 * were folded from (day-figures.ts), so that both agree. The day's rows of `stat_domain_daily` and `_hourly` exist by
 * then (written with their page views and sketches). Run in the day's transaction, under the rollup's lock: only the
 * rollup writes `stat_visitors`, so the visitors not found cannot have been stored meanwhile (inserted without
 * `on conflict`).
 *
 * Without `batches` the day is counted whole and its three counts set. With `batches` (a rollup folding only the
 * batches taken from the queue, the day's counts standing for the events counted before them) only the visitors of
 * those batches are grouped, over their page views without the batches and with them, and the difference is added to
 * the counts: a visitor's figures depend on its own page views alone, so the others' stay as counted. Grouping the
 * whole day again on every run would make a busy day's steady rollups cost what the day holds (issue #50).
 */
export async function rollupVisits(
  t: Executor,
  tenant: number,
  day: string,
  timeZone: string,
  events: SQL,
  batches?: readonly number[],
): Promise<VisitsRolled> {
  const d = sql`${day}::date`;
  const pageViews = sql`stat_events e where e.tenant = ${tenant} and e.day = ${d} and e.type = 'pageview' and ${events}`;
  const hour = sql`extract(hour from e.at at time zone ${timeZone})::int`;
  // `n0`: a visitor's page views in the domain and hour before the batches (0: none), `n1`: with them.
  const grouped = batches
    ? sql`news as materialized (select distinct e.visitor_hash as v from stat_events e
          where e.tenant = ${tenant} and e.day = ${d} and e.type = 'pageview'
            and e.batch = any(${sql.param([...batches])}::bigint[])),
        hours as materialized (select e.domain, e.visitor_hash as v, ${hour} as h,
            count(*) filter (where e.batch is null or e.batch <> all(${sql.param([...batches])}::bigint[]))::int as n0,
            count(*)::int as n1
          from ${pageViews} and e.visitor_hash in (select v from news)
          group by 1, 2, 3)`
    : sql`hours as materialized (select e.domain, e.visitor_hash as v, ${hour} as h, 0 as n0, count(*)::int as n1
          from ${pageViews} group by 1, 2, 3)`;
  // Before the batches a visitor counted in a domain (hour) with n0 > 0, new if its first day is this one: it was
  // stored then (a first day moved earlier since marks this day for a whole recompute). The whole count has n0 = 0.
  const counts = (n0: SQL, n1: SQL, first: SQL) => sql`
    (count(*) filter (where ${n1} > 0) - count(*) filter (where ${n0} > 0))::int as visits,
    (count(*) filter (where ${n1} = 1) - count(*) filter (where ${n0} = 1))::int as bounced,
    (count(*) filter (where ${n1} > 0 and (${first} is null or ${first} >= ${d}))
      - count(*) filter (where ${n0} > 0 and (${first} is null or ${first} >= ${d})))::int as fresh`;
  const set = batches
    ? sql`visits = r.visits + x.visits, bounced = r.bounced + x.bounced, new_visitors = r.new_visitors + x.fresh`
    : sql`visits = x.visits, bounced = x.bounced, new_visitors = x.fresh`;
  const changed = batches
    ? sql`(x.visits, x.bounced, x.fresh) <> (0, 0, 0)`
    : sql`(r.visits, r.bounced, r.new_visitors) is distinct from (x.visits, x.bounced, x.fresh)`;
  const rows = rowsOf<{ day: string | null; read: number }>(
    await t.execute(sql`with ${grouped},
      vh as materialized (select domain, v, h, n0, n1 from hours
        union all select '', v, h, sum(n0)::int, sum(n1)::int from hours group by v, h),
      known as materialized (select p.domain, p.v, p.n0, p.n1, s.first_day
        from (select domain, v, sum(n0)::int as n0, sum(n1)::int as n1 from vh group by 1, 2) p
        left join stat_visitors s on s.tenant = ${tenant} and s.domain = p.domain and s.visitor = p.v),
      added as (insert into stat_visitors (tenant, domain, visitor, first_day)
        select ${tenant}, domain, v, ${d} from known where first_day is null order by domain, v),
      earlier as (update stat_visitors s set first_day = ${d} from known k
        where k.first_day > ${d} and s.tenant = ${tenant} and s.domain = k.domain and s.visitor = k.v),
      daily as (update stat_domain_daily r set ${set}
        from (select domain, ${counts(sql`n0`, sql`n1`, sql`first_day`)} from known group by domain) x
        where r.tenant = ${tenant} and r.day = ${d} and r.domain = x.domain and ${changed}),
      hourly as (update stat_domain_hourly r set ${set}
        from (select vh.domain, vh.h, ${counts(sql`vh.n0`, sql`vh.n1`, sql`k.first_day`)}
          from vh join known k on k.domain = vh.domain and k.v = vh.v group by 1, 2) x
        where r.tenant = ${tenant} and r.domain = x.domain and r.day = ${d} and r.hour = x.h and ${changed})
    select m.day, (select coalesce(sum(n1), 0)::int from hours) as read
    from (select 1) one left join (select distinct first_day::text as day from known where first_day > ${d}) m on true
    order by 1`),
  );
  return {
    moved: rows.flatMap((r) => (r.day == null ? [] : [String(r.day).slice(0, 10)])),
    read: Number(rows[0]?.read ?? 0),
  };
}
