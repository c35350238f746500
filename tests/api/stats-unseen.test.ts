import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays } from '../../common/period';
import { COUNT_CAP } from '../../server/core/totals';
import { LISTING } from '../../server/modules/movie/matches';
import { SEEN_LOCK, UNSEEN_WALK, unseenPage } from '../../server/modules/statistics/seen';
import { countDrift } from '../../server/seed/bulk';
import { onPostgres, startApi, type TestApi } from './harness';
import { event, report, rollup, siteSender, watchedDb } from './stats-helpers';

/**
 * Issue #12: "not seen in this period" (GET /stats/reports/unseen) read from the last days the rollup keeps
 * (stat_object_seen) and their counts (stat_seen_days, migration 0125). Whatever the order of views, rollups, status
 * changes and deletions, the kept rows equal their recount from the daily rollups, and the list and its total equal
 * the anti-join of the listed objects against the period's daily rows.
 * The harness clock is 2026-06-01 16:00 in Shanghai; views go on the twelve days up to it.
 */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;

const TODAY = '2026-06-01';
const DAYS = Array.from({ length: 12 }, (_, i) => addDays(TODAY, i - 11));
const at = (day: string) => new Date(Date.parse(`${day}T03:00:00+08:00`)).toISOString();

/** mulberry32: the same steps on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WALK = { ...UNSEEN_WALK };
const LISTED = { ...LISTING };
beforeAll(async () => {
  // The movies' walk reads a few at a time here (then twice as many each time): its pages cross many reads.
  Object.assign(UNSEEN_WALK, { least: 3, most: 3 });
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
});
afterAll(async () => {
  Object.assign(UNSEEN_WALK, WALK);
  Object.assign(LISTING, LISTED);
  await api.close();
});

/** The kept rows, and what they must be: recounted from the daily rows, the movies and the tags. */
async function keptAndRecounted() {
  const kept = {
    seen: await api.query(sql`select object_type, object_id, tenant, last_day::text as d from stat_object_seen
      order by 1, 2, 3`),
    days: await api.query(sql`select tenant, object_type, day::text as d, n from stat_seen_days where n <> 0
      order by 1, 2, 3`),
  };
  const recounted = {
    seen: await api.query(sql`select object_type, object_id, tenant, max(day)::text as d from stat_object_daily o
      where views > 0 and (object_type = 'movie' and exists (select 1 from movies m where m.id = o.object_id)
        or object_type = 'tag' and exists (select 1 from movie_tags t where t.id = o.object_id))
      group by 1, 2, 3 order by 1, 2, 3`),
    days: await api.query(sql`select tenant, object_type, d, count(*)::int as n from (
        select tenant, object_type, object_id, max(day)::text as d from stat_object_daily o where views > 0
          and (object_type = 'movie' and exists (select 1 from movies m where m.id = o.object_id and m.status = 'online')
            or object_type = 'tag' and exists (select 1 from movie_tags t where t.id = o.object_id))
        group by 1, 2, 3) as s
      group by 1, 2, 3 order by 1, 2, 3`),
  };
  return { kept, recounted };
}

/** The period's unseen listed objects as the anti-join finds them, in the list's order. */
async function antiJoin(type: 'movie' | 'tag', from: string, to: string, order: 'asc' | 'desc', q?: string) {
  const dir = sql.raw(order === 'desc' ? 'desc nulls last' : 'asc nulls first');
  const idDir = sql.raw(order);
  const seen = (id: ReturnType<typeof sql.raw>) =>
    sql`not exists (select 1 from stat_object_daily d where d.object_type = ${type} and d.object_id = ${id}
      and d.views > 0 and d.day between ${from}::date and ${to}::date)`;
  const rows =
    type === 'movie'
      ? await api.query<{ key: number }>(sql`select id as key from movies m where status = 'online'
          and ${seen(sql.raw('m.id'))} ${q ? sql`and lower(title) like ${`%${q}%`}` : sql``}
          order by published_at ${dir}, id ${idDir}`)
      : await api.query<{ key: number }>(sql`select id as key from movie_tags t where ${seen(sql.raw('t.id'))}
          ${q ? sql`and lower(name) like ${`%${q}%`}` : sql``} order by created_at ${dir}, id ${idDir}`);
  return rows.map((r) => String(r.key));
}

async function unseen(query: Record<string, string>) {
  const r = await report(api, admin, 'unseen', query);
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  return r.body.data as { list: { key: string }[]; total: number; totalExact?: boolean };
}

describe('not seen in this period', () => {
  test('the kept last days and counts equal their recount, and the list its anti-join, through views, rollups, status changes and deletions', async () => {
    const rnd = random(12);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    // the searches' terms and the title and publication changes draw apart (the steps stay as they were)
    const rnd2 = random(7);
    const pick2 = <T>(xs: readonly T[]) => xs[Math.floor(rnd2() * xs.length)];
    const statuses = ['online', 'online', 'offline', 'pending'] as const;
    let checked = 0;
    let paged = 0;
    for (let step = 0; step < 24; step++) {
      const action = step < 2 ? 'create' : pick(['view', 'view', 'view', 'status', 'delete', 'create']);
      if (action === 'create') {
        const values = Array.from(
          { length: 14 },
          (_, i) =>
            sql`(${`Film ${step}-${i}${i % 2 ? ' city' : ''}`}, ${pick(statuses)}, ${i === 5 ? null : `2026-0${1 + Math.floor(rnd() * 5)}-1${i % 10}`})`,
        );
        await api.query(
          sql`insert into movies (title, status, published_at) values ${sql.join(values, sql`, `)}`,
        );
        const tags = Array.from({ length: 6 }, (_, i) => sql`(${`tag ${step}-${i}${i % 2 ? ' city' : ''}`})`);
        await api.query(sql`insert into movie_tags (name) values ${sql.join(tags, sql`, `)}`);
      } else if (action === 'view') {
        const movieIds = (await api.query<{ id: number }>(sql`select id from movies order by id`)).map((r) =>
          Number(r.id),
        );
        const tagIds = (await api.query<{ id: number }>(sql`select id from movie_tags order by id`)).map(
          (r) => Number(r.id),
        );
        const events = Array.from({ length: 12 }, () => {
          // now and then an object that does not exist (kept in the rollups, listed nowhere)
          const ghost = rnd() < 0.1;
          const isTag = rnd() < 0.3;
          const id = ghost ? 900_000 + Math.floor(rnd() * 5) : pick(isTag ? tagIds : movieIds);
          return event({ time: at(pick(DAYS)), object: { type: isTag ? 'tag' : 'movie', id } });
        });
        expect((await send(events)).body.data.accepted).toBe(events.length);
        await rollup(api, admin);
      } else if (action === 'status') {
        // one statement moving several movies, some in and some out of online
        const all = (await api.query<{ id: number }>(sql`select id from movies order by id`)).map((r) =>
          Number(r.id),
        );
        const ids = Array.from({ length: 4 }, () => pick(all));
        await api.query(sql`update movies set status = case when status = 'online' then ${pick(statuses)}
          else 'online' end where id in (${sql.join(ids, sql`, `)})`);
        // and titles and publications: into and out of a search's matches, and along them
        const [renamed, moved] = [pick2(all), pick2(all)];
        await api.query(sql`update movies set title = case when title like '% city' then left(title, -5)
          else title || ' city' end where id = ${renamed}`);
        await api.query(sql`update movies set published_at = case when published_at is null then '2026-02-03'::date
          when ${rnd2() < 0.3} then null else published_at - interval '9 days' end where id = ${moved}`);
      } else {
        const movieIds = (await api.query<{ id: number }>(sql`select id from movies order by id`)).map(
          (r) => r.id,
        );
        const tagIds = (await api.query<{ id: number }>(sql`select id from movie_tags order by id`)).map(
          (r) => r.id,
        );
        await api.query(sql`delete from movies where id in (${pick(movieIds)}, ${pick(movieIds)})`);
        await api.query(sql`delete from movie_tags where id = ${pick(tagIds)}`);
      }
      const { kept, recounted } = await keptAndRecounted();
      expect(kept, `after step ${step} (${action})`).toEqual(recounted);

      for (let k = 0; k < 3; k++) {
        const type = pick(['movie', 'tag'] as const);
        const a = Math.floor(rnd() * DAYS.length);
        const b = Math.min(DAYS.length - 1, a + Math.floor(rnd() * 6));
        // periods that end today or on the last day anything was seen, and earlier ones
        const to = k === 0 ? TODAY : DAYS[b];
        const from = DAYS[Math.min(a, DAYS.indexOf(to))];
        const order = pick(['asc', 'desc'] as const);
        // "city" learned when first searched, its matches kept (movie/matches.ts) through every write after it;
        // "film 1" never learned, its matches read from the table each time
        const q = rnd() < 0.25 ? pick2(['city', 'film 1']) : undefined;
        LISTING.from = q === 'city' ? 1 : Number.POSITIVE_INFINITY;
        const want = await antiJoin(type, from, to, order, q);
        const got = await unseen({ type, from, to, order, pageSize: '100', ...(q ? { q } : {}) });
        const what = `step ${step}: ${type} ${from}..${to} ${order}${q ? ` q=${q}` : ''}`;
        expect(
          got.list.map((r) => r.key),
          what,
        ).toEqual(want);
        expect({ total: got.total, totalExact: got.totalExact }, what).toEqual({
          total: want.length,
          totalExact: true,
        });
        // a page of it: the same keys, and the same total without a short page to give it
        if (want.length > 20) {
          const page2 = await unseen({
            type,
            from,
            to,
            order,
            pageSize: '10',
            page: '2',
            ...(q ? { q } : {}),
          });
          expect(
            page2.list.map((r) => r.key),
            what,
          ).toEqual(want.slice(10, 20));
          expect(page2.total, what).toBe(want.length);
          paged++;
        }
        checked++;
      }
    }
    expect(checked).toBe(72);
    expect(paged).toBeGreaterThan(10);
    expect(await api.query(sql`select term, ready from movie_search_listed`)).toEqual([
      { term: 'city', ready: true },
    ]);
    expect(await countDrift(api.database.db)).toEqual([]);
  }, 120_000);

  test('a total beyond the cap: exact from the kept counts when the period ends on the last day seen, "10,000+" before it', async () => {
    await api.query(sql`insert into movies (title, status, published_at)
      select 'Bulk ' || g, 'online', timestamp '2025-01-01' + g * interval '1 minute' from generate_series(1, ${COUNT_CAP + 40}) g`);
    const [{ online }] = await api.query<{ online: number }>(
      sql`select count(*)::int as online from movies where status = 'online'`,
    );
    const bulk = (
      await api.query<{ id: number }>(
        sql`select id from movies where title like 'Bulk %' order by id limit 3`,
      )
    ).map((r) => Number(r.id));
    // the first bulk movie is seen today, the second two days ago
    const events = [
      event({ time: at(TODAY), object: { type: 'movie', id: bulk[0] } }),
      event({ time: at(addDays(TODAY, -2)), object: { type: 'movie', id: bulk[1] } }),
    ];
    expect((await send(events)).body.data.accepted).toBe(2);
    await rollup(api, admin);
    const seenSince = async (from: string) =>
      Number(
        (
          await api.query<{
            n: number;
          }>(sql`select count(distinct object_id)::int as n from stat_object_daily o
            join movies m on m.id = o.object_id and m.status = 'online'
            where o.object_type = 'movie' and o.views > 0 and o.day >= ${from}::date`)
        )[0].n,
      );
    const from = addDays(TODAY, -3);
    const thisWeek = await unseen({ type: 'movie', from, to: TODAY });
    expect(thisWeek).toMatchObject({ total: online - (await seenSince(from)), totalExact: true });
    expect(thisWeek.total).toBeGreaterThan(COUNT_CAP);
    const before = await unseen({ type: 'movie', from, to: addDays(TODAY, -1) });
    expect(before).toMatchObject({ total: COUNT_CAP, totalExact: false });
    // the newest first: the bulk movies seen are not listed
    expect(before.list.map((r) => r.key)).not.toContain(String(bulk[1]));
    expect(thisWeek.list.map((r) => r.key)).not.toContain(String(bulk[0]));
    // a search of the movies is counted exactly, past the cap too (its matches are sorted in memory)
    // (kept once learned: the grams' counts allow more than LISTING.from matches)
    LISTING.from = LISTED.from;
    const searched = await unseen({ type: 'movie', from, to: TODAY, q: 'Bulk' });
    expect(searched).toMatchObject({ total: COUNT_CAP + 40 - 2, totalExact: true });
    expect(searched.list.map((r) => r.key)).not.toContain(String(bulk[0]));
    expect(await api.query(sql`select ready from movie_search_listed where term = 'bulk'`)).toEqual([
      { ready: true },
    ]);

    // Every bulk movie seen today: few online movies are not seen since yesterday, so yesterday's total is counted
    // (by the movies' walk, in memory), and more than the cap are not seen yesterday: "10,000+".
    const all = (
      await api.query<{ id: number }>(sql`select id from movies where title like 'Bulk %' order by id`)
    ).map((r) => Number(r.id));
    for (let i = 0; i < all.length; i += 500) {
      const views = all
        .slice(i, i + 500)
        .map((id) => event({ time: at(TODAY), object: { type: 'movie', id } }));
      expect((await send(views)).body.data.accepted).toBe(views.length);
    }
    await rollup(api, admin);
    const yesterday = addDays(TODAY, -1);
    expect(online - (await seenSince(yesterday))).toBeLessThanOrEqual(COUNT_CAP);
    const counted = await unseen({ type: 'movie', from: yesterday, to: yesterday });
    expect(counted).toMatchObject({ total: COUNT_CAP, totalExact: false });
  }, 120_000);

  test('a rebuild of the kept last days (zg_stat_seen_rebuild) is followed by the last days kept in memory', async () => {
    const [{ id }] = await api.query<{ id: number }>(sql`insert into movies (title, status, published_at)
      values ('Rebuilt one', 'online', '2026-05-30') returning id`);
    const listed = async () =>
      (await unseen({ type: 'movie', from: TODAY, to: TODAY, q: 'Rebuilt' })).list.map((r) => r.key);
    expect(await listed()).toEqual([String(id)]); // the copy is loaded, without a view of it
    // a view written into the rollups otherwise than by the rollup, then the kept rows rebuilt from them
    await api.query(sql`insert into stat_object_daily (tenant, object_type, day, object_id, views)
      values (2, 'movie', ${TODAY}::date, ${id}, 1)`);
    await api.query(sql`select zg_stat_seen_rebuild()`);
    expect(await listed()).toEqual([]);
  });

  test('a period that ends before the last day seen searches the days of its movies last seen after it, on every read', async () => {
    const [{ tenant }] = await api.query<{ tenant: number }>(
      sql`select tenant from stat_object_seen limit 1`,
    );
    // ends before the last day seen: its movies last seen after it are tested against its days
    const [from, to] = [DAYS[0], DAYS[2]];
    const watched = watchedDb(api.database.db);
    const read = async () => {
      watched.seen.length = 0;
      const got = await unseenPage(watched.db, {
        tenant: Number(tenant),
        type: 'movie',
        period: { from, to },
        page: 1,
        pageSize: 100,
        order: 'desc',
      });
      const sql = watched.seen.map((q) => q.sql);
      return {
        keys: got.rows.map((r) => String(r.key)),
        searched: sql.some((q) => q.includes('select distinct object_id')),
      };
    };
    const want = (await antiJoin('movie', from, to, 'desc')).slice(0, 100);
    expect(await read()).toEqual({ keys: want, searched: true });
    expect(await read()).toEqual({ keys: want, searched: true });
  });

  test('movie ids too large to keep their last days in memory: the list asks the database, and is the same', async () => {
    const big = 17_000_000; // past the ids whose last days are kept in memory (seen.ts MAX_CACHED_ID)
    await api.query(sql`insert into movies (id, title, status, published_at)
      values (${big}, 'Huge city', 'online', '2026-05-20'), (${big + 1}, 'Huge city too', 'online', '2026-05-21')`);
    expect(
      (await send([event({ time: at(TODAY), object: { type: 'movie', id: big } })])).body.data.accepted,
    ).toBe(1);
    await rollup(api, admin);
    for (const q of [undefined, 'huge']) {
      const got = await unseen({
        type: 'movie',
        from: TODAY,
        to: TODAY,
        pageSize: '100',
        ...(q ? { q } : {}),
      });
      const keys = got.list.map((r) => r.key);
      expect(keys).not.toContain(String(big));
      expect(keys).toContain(String(big + 1));
      if (q) expect(keys).toEqual(await antiJoin('movie', TODAY, TODAY, 'desc', q));
    }
  });

  test.runIf(onPostgres)(
    "a movie's status change waits for a rollup that holds the counts' lock; other changes do not",
    async () => {
      const url = (api.database as { url?: string }).url!;
      const holder = new pg.Client({ connectionString: url });
      const other = new pg.Client({ connectionString: url });
      await holder.connect();
      await other.connect();
      try {
        const [{ id }] = await api.query<{ id: number }>(
          sql`insert into movies (title, status) values ('Locked', 'online') returning id`,
        );
        await send([event({ time: at(TODAY), object: { type: 'movie', id: Number(id) } })]);
        await rollup(api, admin);
        await holder.query('begin');
        await holder.query('select pg_advisory_xact_lock($1)', [SEEN_LOCK]);
        await other.query("set lock_timeout = '300ms'");
        // a title change moves no count: no lock
        await other.query('update movies set title = $2 where id = $1', [id, 'Renamed']);
        // going offline moves the count of its last day: it waits, and gives up here
        await expect(other.query(`update movies set status = 'offline' where id = $1`, [id])).rejects.toThrow(
          /lock timeout/,
        );
        await holder.query('rollback');
        await other.query(`update movies set status = 'offline' where id = $1`, [id]);
        const { kept, recounted } = await keptAndRecounted();
        expect(kept).toEqual(recounted);
      } finally {
        await holder.end();
        await other.end();
      }
    },
  );
});
