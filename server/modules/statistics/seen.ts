import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Period } from '../../../common/period';
import { containsAnyCase } from '../../core/shared';
import { COUNT_CAP, cappedCount, type ListTotal, type PageRead, shortPageTotal } from '../../core/totals';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { titleContains } from '../movie/model';
import { movies, movieTags } from '../movie/schema';
import type { SEEN_TYPES } from './schema';

/**
 * "Not seen in this period": the online movies, or the tags, without a view in a period (issue #12), at a million
 * movies. The rollup keeps each existing movie's and tag's last day with a view (`stat_object_seen`) and, per day,
 * how many listed ones (online movies, every tag) were last seen that day (`stat_seen_days`); migration 0125's
 * triggers keep those counts when a movie goes online or offline and when a movie or tag is deleted. Then:
 * - the listed objects not seen since a day number the listed count less the counts of the days from it on;
 * - a period that ends on or after the last day any listed object was seen (today's, last week's, this month's) is
 *   exactly that: its total is a sum of a few rows, whatever the number of movies;
 * - an earlier period (yesterday once today has views, last month) has at least that many: beyond COUNT_CAP the total
 *   says so (`totalExact: false`), else it is counted, capped, like any list;
 * - a page walks the objects in their order (the movies' status index) and skips the seen ones by their last day,
 *   reading a period's daily rows only for an object last seen after the period began.
 */

/** Both writers of the counts (the rollup exclusively, migration 0125's triggers shared) take this lock first. */
export const SEEN_LOCK = 7_270_772_013;

type SeenType = (typeof SEEN_TYPES)[number];

/**
 * Moves to `day` the last day of the objects viewed on it (a rollup of the day, in its transaction, last: the lock is
 * held until the transaction ends) and the listed ones' counts with it. An object that does not exist has no row:
 * its views are kept in the rollups, but it is nobody's to list. A last day only moves forward: a day's views only
 * grow as its events are folded (a day read again whole counts the same events and those since).
 */
export async function keepSeen(
  t: Executor,
  tenant: number,
  day: string,
  viewed: { type: string; id: number }[],
) {
  if (!viewed.length) return;
  await t.execute(sql`select pg_advisory_xact_lock(${SEEN_LOCK})`);
  await t.execute(sql`with u as (select distinct ot, oi from unnest(${arrayParam(viewed.map((o) => o.type))}::text[],
      ${arrayParam(viewed.map((o) => o.id))}::int[]) as u(ot, oi)),
    k as (select ot, oi, case when ot = 'movie' then (select m.status = 'online' from movies m where m.id = oi)
      else (select true from movie_tags g where g.id = oi) end as listed from u),
    old as (select s.object_type, s.object_id, s.last_day from stat_object_seen s
      join k on s.object_type = k.ot and s.object_id = k.oi and s.tenant = ${tenant}),
    moved as (insert into stat_object_seen as s (object_type, object_id, tenant, last_day)
      select ot, oi, ${tenant}, ${day}::date from k where listed is not null order by ot, oi
      on conflict (object_type, object_id, tenant) do update set last_day = excluded.last_day
        where s.last_day < excluded.last_day
      returning s.object_type, s.object_id)
    insert into stat_seen_days as c (tenant, object_type, day, n)
    select ${tenant}, ot, d, sum(n)::int from (
      select k.ot, ${day}::date as d, 1 as n from moved join k on k.ot = moved.object_type and k.oi = moved.object_id
        where k.listed
      union all select k.ot, old.last_day, -1 from moved join k on k.ot = moved.object_type and k.oi = moved.object_id
        join old on old.object_type = moved.object_type and old.object_id = moved.object_id where k.listed
    ) as x group by ot, d having sum(n) <> 0 order by ot, d
    on conflict (tenant, object_type, day) do update set n = c.n + excluded.n`);
}

export interface UnseenQuery {
  tenant: number;
  type: SeenType;
  period: Period;
  q?: string;
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
}

export interface UnseenRow {
  key: number;
  label: string;
  published_at: string | null;
}

/** The listed objects (`table`, their order and search) of each type. */
const LISTS: Record<
  SeenType,
  { table: PgTable; from: SQL; id: SQL; listed: SQL | undefined; sort: SQL; search: (q: string) => SQL }
> = {
  movie: {
    table: movies,
    from: sql`select id as key, title as label, published_at from movies`,
    id: sql`movies.id`,
    listed: sql`movies.status = 'online'`,
    sort: sql`published_at`,
    search: (q) => titleContains(q),
  },
  tag: {
    table: movieTags,
    from: sql`select id as key, name as label, created_at as published_at from movie_tags`,
    id: sql`movie_tags.id`,
    listed: undefined,
    sort: sql`created_at`,
    search: (q) => containsAnyCase(movieTags.name, q),
  },
};

/** The count of listed objects of a type: the movie triggers' kept count of online movies; tags are few. */
const listedCount: Record<SeenType, SQL> = {
  movie: sql`(select coalesce(sum(n), 0) from movie_counts where dim = 'all' and key = 0 and status = 'online')`,
  tag: sql`(select count(*) from movie_tags)`,
};

/**
 * The total the kept counts give, without a search (`notSince`: the listed objects not seen since the period began):
 * exactly that when the period ends on or after the last day seen (`endsLast`), "more than COUNT_CAP" when an earlier
 * period's lower bound passes it; else none (counted, capped). A short page is its own total.
 */
function keptTotal(endsLast: boolean, notSince: number, read: PageRead): ListTotal | undefined {
  const short = shortPageTotal(read);
  if (short) return short;
  if (endsLast) return { total: notSince, totalExact: true };
  return notSince > COUNT_CAP ? { total: COUNT_CAP, totalExact: false } : undefined;
}

/** A page of the listed objects without a view in the period, and its total. */
export async function unseenPage(db: Executor, uq: UnseenQuery): Promise<{ rows: UnseenRow[] } & ListTotal> {
  const { tenant, type, period, page, pageSize, order } = uq;
  const [kept] = rowsOf<{ listed: number; since: number; last: string | null }>(
    await db.execute(sql`select ${listedCount[type]}::bigint as listed,
      (select coalesce(sum(n), 0) from stat_seen_days
        where tenant = ${tenant} and object_type = ${type} and day >= ${period.from}::date)::bigint as since,
      (select max(day) from stat_seen_days where tenant = ${tenant} and object_type = ${type} and n > 0)::text as last`),
  );
  // Whether no listed object was seen after the period: then "not seen since it began" is "not seen in it".
  const endsLast = kept.last === null || kept.last <= period.to;
  const notSince = Number(kept.listed) - Number(kept.since);
  const list = LISTS[type];
  const seenSince = sql`select 1 from stat_object_seen s where s.object_type = ${type} and s.object_id = ${list.id}
    and s.tenant = ${tenant} and s.last_day >= ${period.from}::date`;
  // The object's own days (stat_object_daily_object_idx, migration 0125), searched for each object that needs it: a
  // scalar subquery, which the planner cannot turn into a hashed one (PGlite read all the period's rows for that).
  const unseen = endsLast
    ? sql`not exists (${seenSince})`
    : sql`not exists (${seenSince} and (select true from stat_object_daily d where d.tenant = ${tenant}
        and d.object_type = ${type} and d.object_id = ${list.id}
        and d.day between ${period.from}::date and ${period.to}::date and d.views > 0 limit 1))`;
  const conditions = [list.listed, unseen, uq.q ? list.search(uq.q) : undefined].filter((c): c is SQL => !!c);
  const where = sql.join(conditions, sql` and `);
  const dir = order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
  const idDir = order === 'desc' ? sql`desc` : sql`asc`;
  const offset = (page - 1) * pageSize;
  const rows = rowsOf<UnseenRow>(
    await db.execute(sql`${list.from} where ${where} order by ${list.sort} ${dir}, id ${idDir}
      limit ${pageSize} offset ${offset}`),
  );
  const read = { offset, pageSize, rows: rows.length };
  const total =
    (!uq.q && keptTotal(endsLast, notSince, read)) || (await cappedCount(db, list.table, where, read));
  return { rows, ...total };
}
