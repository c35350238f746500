import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';

/** What a rollup of the visits did: the later days to recompute whole, and the page views it grouped. */
interface VisitsRolled {
  /** Later days some visitor was counted new on whose first day moved here: the caller marks them for a whole recompute. */
  moved: string[];
  /** The page views the statement grouped: the day's, or the new batches' alone (what a test can check). */
  read: number;
}

/** A day's and an hour's counts of a visitor from its hours' bits: seen in them, and seen on one page alone. */
const seenDay = (once: string, more: string) => sql.raw(`(${once} | ${more}) <> 0`);
const bounceDay = (once: string, more: string) =>
  sql.raw(`(${more} = 0 and ${once} <> 0 and (${once} & (${once} - 1)) = 0)`);
const seenHour = (once: string, more: string) => sql.raw(`(((${once} | ${more}) >> x.h) & 1) = 1`);
const bounceHour = (once: string) => sql.raw(`((${once} >> x.h) & 1) = 1`);

/** The hours whose bits a visitor's row changed, and the lowest and highest of them (a visitor is seen in few hours). */
const changed = sql.raw('((once0 # once1) | (more0 # more1))');
const lowestBit = (mask: SQL) => sql`24 - length(rtrim(${mask}::bit(24)::text, '0'))`;
const highestBit = (mask: SQL) => sql`24 - position('1' in ${mask}::bit(24)::text)`;

/**
 * The differences a set of visitors' rows made to the day's (or an hour's) visits (seen in it), bounces (one page view
 * in it) and new visitors (seen, and counted new on this day), from their bits before (`once0`, `more0`) and after.
 */
const counts = (seen0: SQL, seen1: SQL, bounce0: SQL, bounce1: SQL) => sql`
  (count(*) filter (where ${seen1}) - count(*) filter (where ${seen0}))::int as visits,
  (count(*) filter (where ${bounce1}) - count(*) filter (where ${bounce0}))::int as bounced,
  (count(*) filter (where fresh and ${seen1}) - count(*) filter (where fresh and ${seen0}))::int as fresh`;

/**
 * The figures of a (tenant, day) that need each visitor's page views, counted in SQL (issue #48): each visitor's first
 * day per domain and site-wide ('' : `stat_visitors`), and the domains' visits (visitors in the day or hour), bounces
 * (one page view in it) and new visitors (first seen this day), per day and per hour. Nothing of it is held in the
 * process (a day's map of visitors held about a kilobyte each, and anyone with the browser key can make up visitors).
 *
 * What a visitor's counts need of its page views is little: per domain and hour, none, one or more. `stat_visitor_hours`
 * keeps that per day, domain and visitor as two masks of hours, and whether the day counts the visitor new. A rollup
 * groups the page views of the events it counts (`events`, a condition on `stat_events e`: those the day's other
 * figures were folded from, day-figures.ts), merges them into those rows and adds to the counts the difference between
 * the rows before and after: a visitor's counts depend on its own page views alone, so the others' stand. With
 * `batches` (a rollup folding the batches taken from the queue) only their events are grouped: the day's earlier events
 * are never read again, however many of their visitors come back (issue #50). Without, the day's rows are deleted
 * first and the day counted whole.
 *
 * The day's rows of `stat_domain_daily` and `_hourly` exist by then (written with their page views and sketches; a
 * whole write leaves their counts at 0). Run in the day's transaction, under the rollup's lock: only the rollup writes
 * `stat_visitors` and `stat_visitor_hours`, so the visitors not found cannot have been stored meanwhile. A visitor's
 * first day is looked up once per day and domain, when it is first seen there; a first day moved earlier since marks
 * this day for a whole recompute, so the stored `fresh` stands until then.
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
  if (!batches) await t.execute(sql`delete from stat_visitor_hours where day = ${d} and tenant = ${tenant}`);
  // The range lets the batches' index (BRIN: batches are stored in order) skip the day's other events.
  const which = batches?.length
    ? sql`e.batch between ${Math.min(...batches)} and ${Math.max(...batches)}
        and e.batch = any(${sql.param([...batches])}::bigint[])`
    : batches
      ? sql`false`
      : events;
  const rows = rowsOf<{ day: string | null; read: number }>(
    await t.execute(sql`with
      hours as materialized (select case when grouping(domain) = 0 then domain else '' end as domain, v, h,
          count(*)::int as n
        from (select e.domain, e.visitor_hash as v, extract(hour from e.at at time zone ${timeZone})::int as h
          from stat_events e where e.tenant = ${tenant} and e.day = ${d} and e.type = 'pageview' and ${which}) e
        group by grouping sets ((domain, v, h), (v, h))),
      added as (select domain, v, bit_or(case when n = 1 then 1 << h else 0 end) as once,
          bit_or(case when n > 1 then 1 << h else 0 end) as more
        from hours group by 1, 2),
      was as (select a.*, s.once as once0, s.more as more0, s.fresh,
          case when s.once is null then (select f.first_day from stat_visitors f
            where f.tenant = ${tenant} and f.domain = a.domain and f.visitor = a.v) end as first_day
        from added a left join stat_visitor_hours s
          on s.day = ${d} and s.tenant = ${tenant} and s.domain = a.domain and s.visitor = a.v),
      merged as (select *, more | coalesce(more0, 0) | (once & coalesce(once0, 0)) as more1 from was),
      known as materialized (select domain, v, once0 is not null as counted, coalesce(once0, 0) as once0,
          coalesce(more0, 0) as more0, (once | coalesce(once0, 0)) & ~more1 as once1, more1, first_day,
          coalesce(fresh, first_day is null or first_day >= ${d}) as fresh
        from merged),
      put as (insert into stat_visitor_hours (day, tenant, domain, visitor, once, more, fresh)
        select ${d}, ${tenant}, domain, v, once1, more1, fresh from known
        where not counted or (once1, more1) <> (once0, more0) order by domain, v
        on conflict (day, tenant, domain, visitor) do update set once = excluded.once, more = excluded.more),
      firsts as (insert into stat_visitors (tenant, domain, visitor, first_day)
        select ${tenant}, domain, v, ${d} from known where not counted and first_day is null order by domain, v),
      earlier as (update stat_visitors s set first_day = ${d} from known k
        where not k.counted and k.first_day > ${d} and s.tenant = ${tenant} and s.domain = k.domain and s.visitor = k.v),
      daily as (update stat_domain_daily r
          set visits = r.visits + x.visits, bounced = r.bounced + x.bounced, new_visitors = r.new_visitors + x.fresh
        from (select domain, ${counts(seenDay('once0', 'more0'), seenDay('once1', 'more1'), bounceDay('once0', 'more0'), bounceDay('once1', 'more1'))}
          from known group by domain) x
        where r.tenant = ${tenant} and r.day = ${d} and r.domain = x.domain and (x.visits, x.bounced, x.fresh) <> (0, 0, 0)),
      hourly as (update stat_domain_hourly r
          set visits = r.visits + x.visits, bounced = r.bounced + x.bounced, new_visitors = r.new_visitors + x.fresh
        from (select domain, x.h, ${counts(seenHour('once0', 'more0'), seenHour('once1', 'more1'), bounceHour('once0'), bounceHour('once1'))}
          from (select * from known where (once1, more1) <> (once0, more0)) k
          cross join generate_series(${lowestBit(changed)}, ${highestBit(changed)}) as x(h)
          where ((${changed} >> x.h) & 1) = 1 group by 1, 2) x
        where r.tenant = ${tenant} and r.domain = x.domain and r.day = ${d} and r.hour = x.h
          and (x.visits, x.bounced, x.fresh) <> (0, 0, 0))
    select m.day, (select coalesce(sum(n), 0)::int from hours where domain = '') as read
    from (select 1) one left join (select distinct first_day::text as day from known where first_day > ${d}) m on true
    order by 1`),
  );
  return {
    moved: rows.flatMap((r) => (r.day == null ? [] : [String(r.day).slice(0, 10)])),
    read: Number(rows[0]?.read ?? 0),
  };
}
