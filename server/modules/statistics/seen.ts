import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { daysIn, type Period } from '../../../common/period';
import { entry } from '../../core/maps';
import { eachNumbered, idList } from '../../core/number-list';
import { containsAnyCase } from '../../core/shared';
import {
  COUNT_CAP,
  cappedCount,
  cappedOf,
  type ListTotal,
  type PageRead,
  shortPageTotal,
} from '../../core/totals';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { keptMatches, matchOrder } from '../movie/matches';
import { titleContains } from '../movie/model';
import { movies, movieTags } from '../movie/schema';
import type { SEEN_TYPES } from './schema';

/**
 * "Not seen in this period": the online movies, or the tags, without a view in a period, at a million
 * movies. The rollup keeps each existing movie's and tag's last day with a view (`stat_object_seen`) and, per day,
 * how many listed ones (online movies, every tag) were last seen that day (`stat_seen_days`); triggers on
 * `movies` and `movie_tags` keep those counts when a movie goes online or offline and when a movie or tag is deleted. Then:
 * - the listed objects not seen since a day number the listed count less the counts of the days from it on;
 * - a period that ends on or after the last day any listed object was seen (today's, last week's, this month's) is
 *   exactly that: its total is a sum of a few rows, whatever the number of movies;
 * - an earlier period (yesterday once today has views, last month) has at least that many: beyond COUNT_CAP the total
 *   says so (`totalExact: false`), else it is counted, capped, like any list (the movies by their walk, in memory);
 * - a page walks the objects in their order (the movies' status index) and skips the seen ones by their last day,
 *   reading a period's daily rows only for an object last seen after the period ended. The movies' last days are
 *   kept in memory (`movieLastDays`): the walk reads the index alone, without a probe a movie.
 */

/** Both writers of the counts (the rollup exclusively, the movies' triggers shared) take this lock first. */
export const SEEN_LOCK = 7_270_772_013;

type SeenType = (typeof SEEN_TYPES)[number];

/**
 * Moves to `day` the last day of the objects viewed on it (a rollup of the day, in its transaction, last: the lock is
 * held until the transaction ends) and the listed ones' counts with it. An object that does not exist has no row:
 * its views are kept in the rollups, but it is nobody's to list. A last day only moves forward: a day's views only
 * grow as its events are folded (a day read again whole counts the same events and those since).
 */
export async function recordSeen(
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
    g as (select nextval('stat_seen_gen') as gen),
    moved as (insert into stat_object_seen as s (object_type, object_id, tenant, last_day, gen)
      select ot, oi, ${tenant}, ${day}::date, (select gen from g) from k where listed is not null order by ot, oi
      on conflict (object_type, object_id, tenant) do update set last_day = excluded.last_day, gen = excluded.gen
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

interface UnseenRow {
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
function countedTotal(endsLast: boolean, notSince: number, read: PageRead): ListTotal | undefined {
  const short = shortPageTotal(read);
  if (short) return short;
  if (endsLast) return { total: notSince, totalExact: true };
  return notSince > COUNT_CAP ? { total: COUNT_CAP, totalExact: false } : undefined;
}

/** A page of the listed objects without a view in the period, and its total. */
export async function unseenPage(db: Executor, uq: UnseenQuery): Promise<{ rows: UnseenRow[] } & ListTotal> {
  const { tenant, type, period, page, pageSize, order } = uq;
  const [counts] = rowsOf<{ listed: number; since: number; last: string | null; gen: string }>(
    await db.execute(sql`select ${listedCount[type]}::bigint as listed,
      (select coalesce(sum(n), 0) from stat_seen_days
        where tenant = ${tenant} and object_type = ${type} and day >= ${period.from}::date)::bigint as since,
      (select max(day) from stat_seen_days where tenant = ${tenant} and object_type = ${type} and n > 0)::text as last,
      (select coalesce(max(gen), 0) from stat_object_seen where tenant = ${tenant} and object_type = ${type})::text
        as gen`),
  );
  // Whether no listed object was seen after the period: then "not seen since it began" is "not seen in it".
  const endsLast = counts.last === null || counts.last <= period.to;
  const notSince = Number(counts.listed) - Number(counts.since);
  const list = LISTS[type];
  const seenSince = sql`select 1 from stat_object_seen s where s.object_type = ${type} and s.object_id = ${list.id}
    and s.tenant = ${tenant} and s.last_day >= ${period.from}::date`;
  // The object's own days (stat_object_daily_object_idx), searched for each object that needs it: a
  // scalar subquery, which the planner cannot turn into a hashed one (PGlite read all the period's rows for that).
  const unseen = endsLast
    ? sql`not exists (${seenSince})`
    : sql`not exists (${seenSince} and (select true from stat_object_daily d where d.tenant = ${tenant}
        and d.object_type = ${type} and d.object_id = ${list.id}
        and d.day between ${period.from}::date and ${period.to}::date and d.views > 0 limit 1))`;
  const offset = (page - 1) * pageSize;
  const days = type === 'movie' ? await movieLastDays(db, tenant, Number(counts.gen)) : undefined;
  if (days && uq.q) {
    const found = await searchUnseenMovies(db, { tenant, period, offset, pageSize, order, q: uq.q }, days);
    if (found) return found;
  }
  if (days && !uq.q) {
    const share = Number(counts.listed) / Math.max(1, notSince); // movies walked an unseen one, or more
    // A total the kept counts cannot give (an earlier period with few not seen since it began) is counted by the walk,
    // in memory, up to the cap: in SQL each movie seen since would search its days.
    const countTo = !endsLast && notSince <= COUNT_CAP ? COUNT_CAP + 1 : 0;
    const walked = await walkUnseenMovies(
      db,
      { tenant, period, offset, pageSize, order, share, countTo },
      days,
    );
    const read = { offset, pageSize, rows: walked.rows.length };
    return {
      rows: walked.rows,
      ...(countedTotal(endsLast, notSince, read) ?? cappedOf(walked.unseen)),
    };
  }
  const conditions = [list.listed, unseen, uq.q ? list.search(uq.q) : undefined].filter((c): c is SQL => !!c);
  const where = sql.join(conditions, sql` and `);
  const dir = order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
  const idDir = order === 'desc' ? sql`desc` : sql`asc`;
  const rows = rowsOf<UnseenRow>(
    await db.execute(sql`${list.from} where ${where} order by ${list.sort} ${dir}, id ${idDir}
      limit ${pageSize} offset ${offset}`),
  );
  const read = { offset, pageSize, rows: rows.length };
  const total =
    (!uq.q && countedTotal(endsLast, notSince, read)) || (await cappedCount(db, list.table, where, read));
  return { rows, ...total };
}

/**
 * Movies a walk reads from the status index at first: the page's end times the online movies an unseen one (the
 * kept counts', about right, more when the period ends before the last day seen), a quarter more, within these
 * bounds. Each read after it takes twice as many.
 */
export const UNSEEN_WALK = { least: 200, most: 20_000 };

/** Past this movie id the last days are not kept in memory (4 bytes an id): the list walks with a probe a movie. */
const MAX_CACHED_ID = 1 << 24;
/** A day as a number: days since 1970-01-01, plus one (0 is "never seen" in `LastDays`). */
const dayNumber = (day: string) => daysIn('1970-01-01', day);

/**
 * A tenant's movies' last days with a view (`dayNumber`, 0 for none) by movie id, as of the write numbered `gen`:
 * every row of stat_object_seen numbered up to it is in. A deleted movie's day may linger; the walk
 * never meets its id again.
 */
interface LastDays {
  days: Int32Array;
  gen: number;
  reading: Promise<void> | undefined;
  /** An id past MAX_CACHED_ID was met: not kept. */
  tooLarge: boolean;
}
const lastDays = new WeakMap<object, Map<number, LastDays>>();

/**
 * The tenant's movies' last days as of the write numbered at least `gen` (the largest the caller read): the rows moved
 * since the cached copy's number are read (all of them the first time, some 20 MB of text at a million movies seen).
 * Undefined when the ids are too large to keep.
 */
async function movieLastDays(db: Executor, tenant: number, gen: number): Promise<Int32Array | undefined> {
  const cache = entry(
    entry(lastDays, db, () => new Map<number, LastDays>()),
    tenant,
    () => ({
      days: new Int32Array(1024),
      gen: -1,
      reading: undefined,
      tooLarge: false,
    }),
  );
  while (cache.gen < gen && !cache.tooLarge) {
    if (!cache.reading)
      cache.reading = readMoved(db, tenant, cache, gen).finally(() => {
        cache.reading = undefined;
      });
    await cache.reading;
  }
  return cache.tooLarge ? undefined : cache.days;
}

/**
 * Reads into `cache` the rows numbered past its number. Those up to `gen` are all committed by the time this reads
 * (numbers are taken under the rollup's exclusive lock, after it), so the copy is then at least at
 * `gen`, even when no row carries it (a rolled-back write's number, a deleted movie's row).
 */
async function readMoved(db: Executor, tenant: number, cache: LastDays, gen: number) {
  const [r] = rowsOf<{ moved: string | null; gen: string | null }>(
    await db.execute(sql`select string_agg(object_id || ':' || (last_day - date '1970-01-01' + 1), ',') as moved,
      max(gen)::text as gen
      from stat_object_seen where tenant = ${tenant} and object_type = 'movie' and gen > ${cache.gen}`),
  );
  let days = cache.days;
  const whole = eachNumbered(r.moved ?? '', (id, day) => {
    if (id >= MAX_CACHED_ID) return false;
    if (id >= days.length) {
      const grown = new Int32Array(Math.min(MAX_CACHED_ID, Math.max(id + 1, days.length * 2)));
      grown.set(days);
      days = grown;
    }
    days[id] = day;
  });
  if (!whole) {
    cache.tooLarge = true;
    return;
  }
  cache.days = days;
  cache.gen = Math.max(gen, Number(r.gen ?? -1));
}

/**
 * A page of the online movies not seen in the period, walking the status index (ids only, in the list's order) and
 * testing each movie's last day in memory: never seen or last seen before the period, not seen in it; last seen in
 * it, seen; last seen after it, seen in it when one of its days in the period has views (read for those of a chunk at
 * once). Then the page's movies are read by id.
 */
async function walkUnseenMovies(
  db: Executor,
  q: {
    tenant: number;
    period: Period;
    offset: number;
    pageSize: number;
    order: 'asc' | 'desc';
    share: number;
    /** Walk on until this many unseen movies are met, or all of them (0: the page's end). */
    countTo: number;
  },
  days: Int32Array,
): Promise<{ rows: UnseenRow[]; unseen: number }> {
  const { tenant, period, offset, pageSize, order } = q;
  const first = Math.ceil((offset + pageSize) * q.share * 1.25);
  const dir = order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
  const idDir = order === 'desc' ? sql`desc` : sql`asc`;
  const ids: number[] = [];
  const met = new Set<number>();
  let unseen = 0;
  let walked = 0;
  const { least, most } = UNSEEN_WALK;
  const until = Math.max(offset + pageSize, q.countTo);
  for (let chunk = Math.min(most, Math.max(least, first)); unseen < until; chunk *= 2) {
    const walk = rowsOf<{ id: number }>(
      await db.execute(sql`select id from movies where status = 'online' order by published_at ${dir}, id ${idDir}
        limit ${chunk} offset ${walked}`),
    ).map((r) => Number(r.id));
    walked += walk.length;
    const isUnseen = await unseenAmong(db, tenant, period, walk, days);
    for (const id of walk) {
      if (met.has(id)) continue; // the movies moved between two reads: one met already
      met.add(id);
      if (!isUnseen(id)) continue;
      if (unseen >= offset && unseen < offset + pageSize) ids.push(id);
      unseen++;
      if (unseen >= until) break;
    }
    if (walk.length < chunk) break;
  }
  return { rows: await moviesById(db, ids), unseen };
}

/** The movies `ids` as the list shows them, in that order. */
async function moviesById(db: Executor, ids: number[]): Promise<UnseenRow[]> {
  if (!ids.length) return [];
  const byId = new Map(
    rowsOf<UnseenRow>(
      await db.execute(sql`select id as key, title as label, published_at from movies
        where id = any(${arrayParam(ids)}::int[])`),
    ).map((r) => [Number(r.key), r]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Which of the movies `ids` were not seen in the period, by their last days: never seen or last seen before it, not
 * seen; last seen in it, seen; last seen after it, seen when one of its days in the period has views (read for them
 * at once).
 */
async function unseenAmong(db: Executor, tenant: number, period: Period, ids: number[], days: Int32Array) {
  const from = dayNumber(period.from);
  const to = dayNumber(period.to);
  const later = ids.filter((id) => (days[id] ?? 0) > to);
  const seenIn = new Set(
    later.length
      ? rowsOf<{ id: number }>(
          await db.execute(sql`select distinct object_id as id from stat_object_daily where tenant = ${tenant}
            and object_type = 'movie' and object_id = any(${arrayParam(later)}::int[])
            and day between ${period.from}::date and ${period.to}::date and views > 0`),
        ).map((r) => Number(r.id))
      : [],
  );
  return (id: number) => {
    const d = days[id] ?? 0;
    return !(d >= from && (d <= to || seenIn.has(id)));
  };
}

/** The most title matches a search of the list sorts in memory; past it the list asks the database. */
const MAX_SEARCHED = 100_000;

/**
 * A title search of the online movies not seen in the period: its matches (kept, movie/matches.ts, for a search of
 * three or more characters with many; else the grams' index, then the table) are read once, their ids in the list's
 * order, those not seen kept by their last days and counted here: an exact total, and no probe a match. Undefined
 * past MAX_SEARCHED matches.
 */
async function searchUnseenMovies(
  db: Executor,
  q: { tenant: number; period: Period; offset: number; pageSize: number; order: 'asc' | 'desc'; q: string },
  days: Int32Array,
): Promise<({ rows: UnseenRow[] } & ListTotal) | undefined> {
  const { tenant, period, offset, pageSize, order } = q;
  // A transaction cannot learn a term: its registration must be seen by every writer at once.
  const learn = 'rollback' in db ? undefined : db;
  const matches =
    (await keptMatches(db, { q: q.q, status: 'online', order, most: MAX_SEARCHED }, learn)) ??
    idList(
      rowsOf<{ ids: string | null }>(
        await db.execute(sql`select string_agg(id::text, ',' order by ${matchOrder(order)}) as ids from (
          select id, published_at from movies where status = 'online' and ${titleContains(q.q)}
          limit ${MAX_SEARCHED + 1}) as m`),
      )[0].ids,
    );
  if (matches.length > MAX_SEARCHED) return undefined;
  const isUnseen = await unseenAmong(db, tenant, period, matches, days);
  const list = matches.filter(isUnseen);
  const rows = await moviesById(db, list.slice(offset, offset + pageSize));
  return { rows, total: list.length, totalExact: true };
}
