import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  COUNT_CAP,
  LEARN_FROM,
  LEARN_UP_TO,
  learnPays,
  termCounted,
} from '../../server/modules/movie/totals';
import { countDrift } from '../../server/seed/bulk';
import { onPostgres, startApi, type TestApi } from './harness';
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
  // 2,600 "city" titles in four statuses and two columns (and none), and 400 that hold its grams apart.
  await api.query(sql`insert into movies (title, status, column_id, views)
    select (array['Lost City ', 'CITY of ', 'Velocity '])[1 + i % 3] || i,
      (array['pending', 'rejected', 'online', 'offline'])[1 + i % 4],
      (array[${fx.columns.movies}::int, ${fx.columns.series}::int, null])[1 + i % 5 % 3], i
    from generate_series(1, 2600) as i`);
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
    await api.query(sql`select zg_movie_search_learn('lost', 10)`);
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
    await api.query(sql`delete from movies where title like 'Velocity 2%'`);
    expect(await countDrift(api.database.db)).toEqual([]);
    await expectSearchTotals('city');
    await expectSearchTotals('lost');
  });

  test('the rebuild recomputes them', async () => {
    await api.query(sql`update movie_search_counts set n = n + 3 where term = 'city'`);
    expect((await countDrift(api.database.db)).length).toBeGreaterThan(0);
    await api.query(sql`select zg_movie_counts_rebuild()`);
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
    const learn = async (t: string, max: number) =>
      (await api.query<{ ok: boolean }>(sql`select zg_movie_search_learn(${t}, ${max}) as ok`))[0].ok;
    expect(await learn('party', 2)).toBe(true);
    expect(await terms()).toEqual(['lost', 'party']);
    expect(await api.query(sql`select 1 from movie_search_counts where term = 'city'`)).toEqual([]);
    expect(await countDrift(api.database.db)).toEqual([]);
    // Learning a kept term again changes nothing; too short or not lowered is refused.
    expect(await learn('party', 2)).toBe(true);
    expect(await terms()).toEqual(['lost', 'party']);
    expect(await learn('ci', 5)).toBe(false);
    expect(await learn('City', 5)).toBe(false);
    // "city" is learned again when searched.
    expect(await list('q=city&pageSize=10')).toMatchObject({
      total: await matches('city'),
      totalExact: true,
    });
    expect(await terms()).toEqual(['city', 'lost', 'party']);
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

  test.runIf(onPostgres)('a learner gives up rather than wait behind a write in flight', async () => {
    await api.query(sql`insert into movies (title, status) select 'Harbor Lights ' || i, 'online'
      from generate_series(1, ${LEARN_FROM + 100}) as i`);
    const url = (api.database as { url?: string }).url;
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(`update movies set views = views + 1 where title = 'Citadel Party 1'`);
      // The writer's transaction stays open until this answers: a learner that waited for it would never answer.
      expect(await list('q=harbor&pageSize=10')).toMatchObject({
        total: await matches('harbor'),
        totalExact: true,
      });
      expect(await terms()).not.toContain('harbor');
      await writer.query('commit');
      expect(await list('q=harbor&pageSize=10')).toMatchObject({ total: await matches('harbor') });
      expect(await terms()).toContain('harbor');
    } finally {
      await writer.end();
    }
  });
});
