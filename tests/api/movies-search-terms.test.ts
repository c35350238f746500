import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { learnMatches } from '../../server/modules/movie/matches';
import type { MovieStatus } from '../../server/modules/movie/schema';
import {
  COUNT_CAP,
  LEARN_FROM,
  LEARN_UP_TO,
  learnPays,
  learnTerm,
  termCounted,
  termPageStart,
} from '../../server/modules/movie/totals';
import { countDrift } from '../../server/seed/bulk';
import { freshDatabase, onPostgres, startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/**
 * Issue #18: a title search of three or more characters learns its total (migration 0120, totals.ts termTotal) when
 * counting its matches through the table would cost, and from then on reads it from counts the triggers keep exact.
 */
let api: TestApi;
let admin: string;
let fx: MovieFixture;
const M = '/app/admin/movie/movies';
const call = (method: string, path: string, body?: unknown) => api.call(method, path, { token: admin, body });
const list = (query: string) => okData(call('GET', `${M}?${query}`), query);

const terms = async () =>
  (await api.query<{ term: string }>(sql`select term from movie_search_terms order by term`)).map(
    (r) => r.term,
  );

/** The movies whose lowered title contains `q`, counted from the rows, with an SQL condition beside. */
async function matches(q: string, where = 'true') {
  const [{ n }] = await api.query<{ n: number }>(
    sql`select count(*)::int as n from movies where strpos(lower(title), lower(${q})) > 0 and ${sql.raw(where)}`,
  );
  return n;
}

/** Each view, status and column list of `q`: its total is exact and equal to the rows' count. */
async function expectSearchTotals(q: string) {
  const cases: [string, string][] = [
    ['view=all', 'true'],
    ['view=review', "status in ('pending', 'rejected')"],
    ['view=online', "status in ('online', 'offline')"],
    ['view=review&status=pending', "status = 'pending'"],
    ['view=online&status=offline', "status = 'offline'"],
  ];
  for (const [view, where] of cases)
    for (const column of [undefined, fx.columns.movies, fx.columns.series]) {
      const query = `${view}&q=${encodeURIComponent(q)}${column ? `&columnId=${column}` : ''}&pageSize=10`;
      const n = await matches(q, column ? `${where} and column_id = ${column}` : where);
      expect({ query, ...(await list(query)) }).toMatchObject({ query, total: n, totalExact: true });
    }
}

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  fx = await makeFixture(api, admin);
  // 2,600 "city" titles in four statuses and two columns (and none), made over 300 days (published a day later,
  // the online and offline ones, some at the same moment), and 400 that hold its grams apart.
  await api.query(sql`insert into movies (title, status, column_id, views, created_at, published_at)
    select (array['Lost City ', 'CITY of ', 'Velocity '])[1 + i % 3] || i, s.status,
      (array[${fx.columns.movies}::int, ${fx.columns.series}::int, null])[1 + i % 5 % 3], i,
      timestamptz '2025-06-01 00:00Z' + (i / 2) * interval '5 hours 30 minutes',
      case when s.status in ('online', 'offline') then timestamptz '2025-06-02 00:00Z' + (i / 3) * interval '4 hours' end
    from generate_series(1, 2600) as i, lateral (select (array['pending', 'rejected', 'online', 'offline'])[1 + i % 4]
      as status) as s`);
  await api.query(sql`insert into movies (title, status) select 'Citadel Party ' || i, 'online'
    from generate_series(1, 400) as i`);
});
afterAll(() => api.close());

describe('learning a long search', () => {
  test('which lists and which terms: three or more characters, a view or status and at most a column', () => {
    expect(termCounted({ view: 'review', q: 'city', page: 2 })).toBe(true);
    expect(termCounted({ view: 'all', q: '视频片', columnId: 3 })).toBe(true);
    expect(termCounted({ view: 'all', q: '视频' })).toBe(false);
    expect(termCounted({ view: 'all', q: 'city', tagId: 3 })).toBe(false);
    expect(termCounted({ view: 'all', q: 'city', viewsMin: 1 })).toBe(false);
    expect(learnPays(LEARN_FROM - 1)).toBe(false);
    expect(learnPays(LEARN_FROM)).toBe(true);
    expect(learnPays(LEARN_UP_TO)).toBe(true);
    expect(learnPays(LEARN_UP_TO + 1)).toBe(false); // counting them all once would hold writes too long
  });

  test('a search whose grams allow many matches is learned when first searched; its totals are exact', async () => {
    expect(await terms()).toEqual([]);
    expect(await list('q=City&pageSize=10')).toMatchObject({
      total: await matches('city'),
      totalExact: true,
    });
    expect(await terms()).toEqual(['city']);
    // Any letter case is the same term.
    expect(await list('q=cITy&view=review&pageSize=10')).toMatchObject({
      total: await matches('city', "status in ('pending', 'rejected')"),
    });
    expect(await terms()).toEqual(['city']);
    await expectSearchTotals('city');
    expect(await countDrift(api.database.db)).toEqual([]);
  });

  test('a rare one is counted, not learned', async () => {
    // "lost city 12": its grams "12" allow a few hundred matches.
    expect(await list(`q=${encodeURIComponent('lost city 12')}&pageSize=10`)).toMatchObject({
      total: await matches('lost city 12'),
      totalExact: true,
    });
    expect(await terms()).toEqual(['city']);
  });

  test('every kind of write keeps the kept counts exact', async () => {
    expect(await learnTerm(api.database.db, 'Lost', { kept: 10, waitMs: 2_000 })).toBe(true);
    // and the kept matches (migration 0129), of a term whose counts are kept and of one whose are not
    expect(await learnMatches(api.database.db, 'CITY', { kept: 10, waitMs: 2_000 })).toBe(true);
    expect(await learnMatches(api.database.db, 'town', { kept: 10, waitMs: 2_000 })).toBe(true);
    expect(
      await api.query(sql`select count(*)::int as n from movie_search_matches where term = 'city'`),
    ).toEqual([{ n: await matches('city') }]);
    const made: number[] = [];
    for (const title of ['New City', 'Lost and Found', 'cityless'])
      made.push((await createMovie(api, admin, { title, columnId: fx.columns.series })).id);
    const m = await okData(call('GET', `${M}/${made[1]}`));
    await okData(call('PUT', `${M}/${made[1]}`, { version: m.version, title: 'Found City', columnId: null }));
    await okData(call('POST', `${M}/batch`, { action: 'approve', ids: made }));
    await okData(call('POST', `${M}/batch`, { action: 'setColumn', ids: made, columnId: fx.columns.movies }));
    await okData(call('DELETE', `${M}/${made[2]}`));
    await api.query(sql`update movies set title = 'Lost Town ' || id where title like 'Lost City 1%'`);
    await api.query(sql`update movies set status = 'offline' where status = 'online' and id % 2 = 0`);
    await api.query(
      sql`update movies set column_id = ${fx.columns.series} where column_id is null and id % 7 = 0`,
    );
    await api.query(sql`update movies set views = views + 1`);
    // Sort dates moved: their weeks move (movie_search_weeks).
    await api.query(sql`update movies set created_at = created_at - interval '9 days' where id % 5 = 0`);
    await api.query(sql`update movies set published_at = null where status = 'offline' and id % 3 = 0`);
    await api.query(sql`update movies set published_at = created_at + interval '1 hour'
      where status = 'pending' and id % 3 = 1`);
    await api.query(sql`delete from movies where title like 'Velocity 2%'`);
    expect(await countDrift(api.database.db)).toEqual([]);
    // a match moved away leaves no row behind
    expect(await api.query(sql`select count(*)::int as n from movie_search_matches where n = 0`)).toEqual([
      { n: 0 },
    ]);
    await expectSearchTotals('city');
    await expectSearchTotals('lost');
  });

  test('the rebuild recomputes them', async () => {
    await api.query(sql`update movie_search_counts set n = n + 3 where term = 'city'`);
    await api.query(sql`delete from movie_search_matches where term = 'city' and id % 2 = 0`);
    await api.query(
      sql`insert into movie_search_matches (term, status, id, n) values ('town', 'online', -1, 1)`,
    );
    await api.query(sql`update movie_search_listed set ready = false`);
    expect((await countDrift(api.database.db)).map((d) => d.what.split(' ')[0])).toEqual(
      expect.arrayContaining(['match', 'term']),
    );
    await api.query(sql`select zg_movie_counts_rebuild()`);
    expect(await countDrift(api.database.db)).toEqual([]);
    expect(await api.query(sql`select term, ready from movie_search_listed order by term`)).toEqual([
      { term: 'city', ready: true },
      { term: 'town', ready: true },
    ]);
  });

  test('the least recently searched kept matches leave with their rows; learning them again changes nothing', async () => {
    await api.query(sql`update movie_search_listed set used_on = date '2026-01-01' where term = 'town'`);
    const learn = (t: string) => learnMatches(api.database.db, t, { kept: 2, waitMs: 2_000 });
    expect(await learn('lost')).toBe(true);
    const listed = async () =>
      (await api.query<{ term: string }>(sql`select term from movie_search_listed order by term`)).map(
        (r) => r.term,
      );
    expect(await listed()).toEqual(['city', 'lost']);
    expect(await api.query(sql`select 1 from movie_search_matches where term = 'town'`)).toEqual([]);
    const rows = () => api.query(sql`select * from movie_search_matches order by term, status, id`);
    const before = await rows();
    expect(await learn('Lost')).toBe(true);
    expect(await rows()).toEqual(before);
    expect(await countDrift(api.database.db)).toEqual([]);
  });

  test('a search marks its term searched today; the least recently searched leave', async () => {
    await api.query(sql`update movie_search_terms set used_on = date '2026-01-01'`);
    await list('q=lost&pageSize=10');
    const used = await api.query<{ term: string; today: boolean }>(
      sql`select term, used_on = current_date as today from movie_search_terms order by term`,
    );
    expect(used).toEqual([
      { term: 'city', today: false },
      { term: 'lost', today: true },
    ]);
    // Two kept at most: "party" sends "city" (searched longest ago) away with its counts.
    const learn = (t: string, max: number) => learnTerm(api.database.db, t, { kept: max, waitMs: 2_000 });
    expect(await learn('party', 2)).toBe(true);
    expect(await terms()).toEqual(['lost', 'party']);
    expect(await api.query(sql`select 1 from movie_search_counts where term = 'city'`)).toEqual([]);
    expect(await api.query(sql`select 1 from movie_search_weeks where term = 'city'`)).toEqual([]);
    expect(await countDrift(api.database.db)).toEqual([]);
    // Learning a kept term again changes nothing (its counts are already what the rows say).
    expect(await learn('PARTY', 2)).toBe(true);
    expect(await terms()).toEqual(['lost', 'party']);
    expect(await countDrift(api.database.db)).toEqual([]);
    // "city" is learned again when searched.
    expect(await list('q=city&pageSize=10')).toMatchObject({
      total: await matches('city'),
      totalExact: true,
    });
    expect(await terms()).toEqual(['city', 'lost', 'party']);
  });

  test('a deep page of a kept term starts at the week that holds its first row: the same rows as the table gives', async () => {
    expect(await terms()).toContain('city');
    expect(await terms()).not.toContain('ci');
    const cases = [
      ['view=review', "status in ('pending', 'rejected')", 'createdAt', 'created_at'],
      ['view=online', "status in ('online', 'offline')", 'publishedAt', 'published_at'],
      ['view=review&status=rejected', "status = 'rejected'", 'createdAt', 'created_at'],
      // Some pending movies are published (see above), most not: the undated come last, or first.
      ['view=review', "status in ('pending', 'rejected')", 'publishedAt', 'published_at'],
    ];
    // "ci" (two characters) is learned for its weeks by its first deep page: its total is its gram's count.
    for (const q of ['city', 'ci'])
      for (const [view, where, sort, column] of cases)
        for (const order of ['desc', 'asc']) {
          const n = await matches(q, where);
          for (const page of [1, 2, 7, Math.ceil(n / 20) - 1, Math.ceil(n / 20)]) {
            const query = `${view}&q=${q}&sort=${sort}&order=${order}&pageSize=20&page=${page}`;
            const nulls = order === 'desc' ? 'nulls last' : 'nulls first';
            const expected = await api.query<{ id: number }>(
              sql.raw(`select id from movies where strpos(lower(title), '${q}') > 0 and ${where}
                order by ${column} ${order} ${nulls}, id ${order} limit 20 offset ${(page - 1) * 20}`),
            );
            const got = await list(query);
            expect({ query, total: got.total, ids: got.list.map((m: any) => m.id) }).toEqual({
              query,
              total: n,
              ids: expected.map((r) => r.id),
            });
          }
        }
    expect(await terms()).toContain('ci');
    expect(await countDrift(api.database.db)).toEqual([]);
  });

  test("where a kept term's page starts: its week, and the matches before it", async () => {
    const at = async (
      statuses: MovieStatus[],
      sort: 'created' | 'published',
      descending: boolean,
      offset: number,
    ) => {
      const total = await matches('city', `status in (${statuses.map((s) => `'${s}'`).join(', ')})`);
      return termPageStart(
        api.database.db,
        'City',
        statuses,
        sort,
        descending,
        { offset, pageSize: 20 },
        total,
      );
    };
    // The rows themselves, week by week (UTC, from Monday).
    const weeks = async (column: string, where: string, descending: boolean) =>
      api.query<{ week: string; n: number }>(
        sql.raw(`select date_trunc('week', ${column} at time zone 'UTC')::date::text as week, count(*)::int as n
          from movies where strpos(lower(title), 'city') > 0 and ${column} is not null and ${where}
          group by 1 order by 1 ${descending ? 'desc' : 'asc'}`),
      );
    const review = await weeks('created_at', "status in ('pending', 'rejected')", true);
    expect(review.length).toBeGreaterThan(20);
    // Page 1 and the first week's pages start where they are; past a week, at the week holding the offset.
    expect(await at(['pending', 'rejected'], 'created', true, 0)).toBeUndefined();
    const first = review[0].n;
    expect(await at(['pending', 'rejected'], 'created', true, first - 1)).toBeUndefined();
    expect(await at(['pending', 'rejected'], 'created', true, first)).toEqual({
      week: review[1].week,
      before: first,
    });
    const offset = review[0].n + review[1].n + review[2].n + 3;
    expect(await at(['pending', 'rejected'], 'created', true, offset)).toEqual({
      week: review[3].week,
      before: offset - 3,
    });
    // Ascending by publication, the unpublished come first and count before every week.
    const published = await weeks('published_at', "status in ('pending', 'rejected')", false);
    const undated = await matches('city', "status in ('pending', 'rejected') and published_at is null");
    expect(undated).toBeGreaterThan(0);
    expect(await at(['pending', 'rejected'], 'published', false, undated - 1)).toBeUndefined();
    expect(await at(['pending', 'rejected'], 'published', false, undated + published[0].n)).toEqual({
      week: published[1].week,
      before: undated + published[0].n,
    });
    // Descending, a page that reaches the unpublished starts from the beginning.
    const dated = published.reduce((sum, w) => sum + w.n, 0);
    expect(await at(['pending', 'rejected'], 'published', true, dated - 20)).toBeDefined();
    expect(await at(['pending', 'rejected'], 'published', true, dated - 19)).toBeUndefined();
    // A term not kept has no weeks.
    expect(
      await termPageStart(
        api.database.db,
        'velocity',
        ['online'],
        'created',
        true,
        { offset: 500, pageSize: 20 },
        600,
      ),
    ).toBeUndefined();
  });

  test('a search over the count cap is exact once learned', async () => {
    await api.query(sql`insert into movies (title, status) select 'Sunny Town ' || i, 'pending'
      from generate_series(1, ${COUNT_CAP + 50}) as i`);
    expect(await list('q=town&view=review&pageSize=10')).toMatchObject({
      total: await matches('town', "status in ('pending', 'rejected')"),
      totalExact: true,
    });
    expect(await terms()).toContain('town');
    expect(await matches('town')).toBeGreaterThan(COUNT_CAP);
  });

  test.runIf(onPostgres)(
    'a learner waits for the writes in flight, counting each once; past its wait it leaves the term for later',
    async () => {
      await api.query(sql`insert into movies (title, status) select 'Harbor Lights ' || i, 'online'
      from generate_series(1, ${LEARN_FROM + 100}) as i`);
      const url = (api.database as { url?: string }).url;
      const writer = new pg.Client({ connectionString: url });
      await writer.connect();
      try {
        // A write in flight before the term is known: its trigger did not count it.
        await writer.query('begin');
        await writer.query(`insert into movies (title, status) values ('Harbor in flight', 'pending')`);
        const learning = learnTerm(api.database.db, 'harbor', { kept: 500, waitMs: 10_000 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Registered and still waiting; meanwhile the list counts as before, and a new write counts itself.
        expect(await api.query(sql`select ready from movie_search_terms where term = 'harbor'`)).toEqual([
          { ready: false },
        ]);
        expect(await list('q=harbor&pageSize=10')).toMatchObject({
          total: await matches('harbor'),
          totalExact: true,
        });
        await api.query(sql`insert into movies (title, status) values ('Harbor after', 'online')`);
        await writer.query('commit');
        expect(await learning).toBe(true);
        expect(await countDrift(api.database.db)).toEqual([]);
        expect(await list('q=harbor&view=review&pageSize=10')).toMatchObject({
          total: await matches('harbor', "status in ('pending', 'rejected')"),
        });
        // A long transaction that writes no movie does not hold a learner back.
        await writer.query('begin');
        await writer.query(`insert into movie_tags (name, "group") values ('长事务', 'x')`);
        expect(await learnTerm(api.database.db, 'harbor', { kept: 500, waitMs: 200 })).toBe(true);
        await writer.query('rollback');
        // A writer held past the wait: the learner gives up, the term stays not ready; a later search finishes it.
        await writer.query('begin');
        await writer.query(`insert into movies (title, status) values ('Slow Lights', 'pending')`);
        expect(await learnTerm(api.database.db, 'lights', { kept: 500, waitMs: 200 })).toBe(false);
        expect(await api.query(sql`select ready from movie_search_terms where term = 'lights'`)).toEqual([
          { ready: false },
        ]);
        await writer.query('commit');
        expect(await list('q=lights&pageSize=10')).toMatchObject({
          total: await matches('lights'),
          totalExact: true,
        });
        expect(await api.query(sql`select ready from movie_search_terms where term = 'lights'`)).toEqual([
          { ready: true },
        ]);
        expect(await countDrift(api.database.db)).toEqual([]);
      } finally {
        await writer.end();
      }
    },
  );

  test.runIf(onPostgres)(
    "a learner of a term's matches waits for the writes in flight; each write before or after it is in them once",
    async () => {
      await api.query(sql`insert into movies (title, status) select 'Meadow Song ' || i, 'online'
        from generate_series(1, 300) as i`);
      await api.query(sql`insert into movies (title, status) values ('Meadow Draft', 'rejected')`);
      const url = (api.database as { url?: string }).url;
      const writer = new pg.Client({ connectionString: url });
      await writer.connect();
      try {
        // Writes in flight before the term is registered: a new match, and a match moved out of online.
        await writer.query('begin');
        await writer.query(`insert into movies (title, status) values ('Meadow in flight', 'pending')`);
        await writer.query(`update movies set status = 'offline' where title = 'Meadow Song 7'`);
        const learning = learnMatches(api.database.db, 'meadow', { kept: 50, waitMs: 10_000 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await api.query(sql`select ready from movie_search_listed where term = 'meadow'`)).toEqual([
          { ready: false },
        ]);
        // Registered: a write now moves the matches itself (a title out of them, a publication along them; rows
        // whose counts the writer in flight does not hold).
        await api.query(sql`update movies set title = 'Field Draft' where title = 'Meadow Draft'`);
        await api.query(sql`update movies set published_at = '2026-05-01' where title = 'Meadow Song 9'`);
        await writer.query('commit');
        expect(await learning).toBe(true);
        expect(await countDrift(api.database.db)).toEqual([]);
        expect(
          await api.query(sql`select count(*)::int as n from movie_search_matches
            where term = 'meadow' and status = 'online' and n = 1`),
        ).toEqual([{ n: await matches('meadow', "status = 'online'") }]);
      } finally {
        await writer.end();
      }
    },
  );

  test.runIf(onPostgres)('a learner does not wait for the writers of another database', async () => {
    // made from the same template: its movies table has the same number (oid) as this one's
    const other = await freshDatabase({ migrated: true });
    const writer = new pg.Client({ connectionString: (other as { url?: string }).url });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(`insert into movies (title, status) values ('Elsewhere', 'pending')`);
      expect(await learnTerm(api.database.db, 'elsewhere', { kept: 500, waitMs: 200 })).toBe(true);
      expect(await learnMatches(api.database.db, 'elsewhere', { kept: 50, waitMs: 200 })).toBe(true);
      await writer.query('rollback');
    } finally {
      await writer.end();
      await other.close();
    }
  });
});
