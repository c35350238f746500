import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_ANSWERS, markRolled } from '../../server/modules/statistics/report-cache';
import { startApi, type TestApi } from './harness';
import { event, report, rollup, siteSender } from './stats-helpers';

/**
 * Issue #12: report answers are kept between identical reads (server/modules/statistics/report-cache.ts) and never
 * outlive a rollup of a day they cover. "Kept" is observed by changing a rollup row behind the rollup's back: a kept
 * answer does not see it; a rollup of any day of the period (or of the compared period) does.
 * The harness clock is 2026-06-01 16:00 in Shanghai.
 */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;

const D1 = '2026-05-31';
const D2 = '2026-06-01';
const at = (day: string, hour: number) =>
  new Date(Date.parse(`${day}T00:00:00+08:00`) + hour * 3_600_000).toISOString();
const PERIOD = { from: D2, to: D2 };

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
  await send([
    event({ time: at(D1, 9), domain: 'a.test', visitor: 'v1' }),
    event({ time: at(D2, 9), domain: 'a.test', visitor: 'v1' }),
    event({ time: at(D2, 10), domain: 'a.test', visitor: 'v2' }),
  ]);
  await rollup(api, admin);
});
afterAll(() => api.close());

const views = async (query: Record<string, string> = {}) => {
  const r = await report(api, admin, 'domains', { from: PERIOD.from, to: PERIOD.to, ...query });
  expect(r.body.code).toBe(20000);
  return r.body.data;
};
/** Changes a rollup row without the rollup: only a fresh computation sees it. */
const tamper = (day: string, pageViews: number) =>
  api.query(
    sql`update stat_domain_daily set page_views = ${pageViews} where day = ${day}::date and domain = 'a.test'`,
  );

test('an identical read is answered from the kept answer; a rollup of a day in the period computes afresh', async () => {
  const first = await views();
  expect(first.list[0]).toMatchObject({ key: 'a.test', pageViews: 2 });
  await tamper(D2, 99);
  expect((await views()).list[0].pageViews).toBe(2); // kept
  expect((await views({ sort: 'key' })).list[0].pageViews).toBe(99); // another query: computed

  await send([event({ time: at(D2, 11), domain: 'a.test', visitor: 'v3' })]);
  await rollup(api, admin); // recomputes D2 from the raw events (3 views), and marks it
  expect((await views()).list[0].pageViews).toBe(3);
});

test('a comparison is computed afresh when a day of the previous period is rolled up again', async () => {
  const before = await views({ compare: 'true' });
  expect(before.list[0].previous.pageViews).toBe(1);
  await tamper(D1, 50);
  expect((await views({ compare: 'true' })).list[0].previous.pageViews).toBe(1); // kept
  await send([event({ time: at(D1, 12), domain: 'a.test', visitor: 'v4' })]);
  await rollup(api, admin); // D1 only
  expect((await views({ compare: 'true' })).list[0].previous.pageViews).toBe(2);
});

test('each read gets its own copy: changing an answer does not change the next one', async () => {
  const a = await views();
  a.list[0].pageViews = -1;
  a.totals.pageViews = -1;
  const b = await views();
  expect(b.list[0].pageViews).toBeGreaterThan(0);
  expect(b.totals.pageViews).toBeGreaterThan(0);
});

test('a movie title search is never kept (titles change without a rollup)', async () => {
  const [{ id }] = await api.query<{ id: number }>(
    sql`insert into movies (title, status) values ('Kept Not', 'online') returning id`,
  );
  await send([event({ time: at(D2, 12), domain: 'a.test', visitor: 'v5', object: { type: 'movie', id } })]);
  await rollup(api, admin);
  const q = { from: D2, to: D2, q: 'Kept' };
  expect((await report(api, admin, 'movies', q)).body.data.total).toBe(1);
  await api.query(sql`update movies set title = 'Renamed' where id = ${id}`);
  expect((await report(api, admin, 'movies', q)).body.data.total).toBe(0);
});

test(`at most ${MAX_ANSWERS} answers are kept: the least recently used goes first`, async () => {
  const base = await views({ pageSize: '10' });
  await tamper(D2, 77);
  expect((await views({ pageSize: '10' })).list[0].pageViews).toBe(base.list[0].pageViews); // kept
  // MAX_ANSWERS other reads (distinct pages) push it out
  for (let page = 2; page <= MAX_ANSWERS + 1; page++) await views({ pageSize: '10', page: String(page) });
  expect((await views({ pageSize: '10' })).list[0].pageViews).toBe(77);
});

test('a day whose sums only were rewritten keeps its day_gen; one recomputed moves it (0 for a day never recomputed)', async () => {
  const db = api.database.db;
  const genOf = async (day: string) =>
    (
      await api.query<{ gen: string; day_gen: string }>(
        sql`select gen::text, day_gen::text from stat_rolled_days where tenant = 2 and day = ${day}::date`,
      )
    )[0];
  await db.transaction((tx) => markRolled(tx, 2, '2026-04-01', 'sums'));
  const fresh = await genOf('2026-04-01');
  expect(Number(fresh.gen)).toBeGreaterThan(0);
  expect(fresh.day_gen).toBe('0');
  await db.transaction((tx) => markRolled(tx, 2, '2026-04-01'));
  const rolled = await genOf('2026-04-01');
  expect(rolled.day_gen).toBe(rolled.gen);
  await db.transaction((tx) => markRolled(tx, 2, '2026-04-01', 'sums'));
  const again = await genOf('2026-04-01');
  expect(BigInt(again.gen)).toBeGreaterThan(BigInt(rolled.gen));
  expect(again.day_gen).toBe(rolled.day_gen);
});
