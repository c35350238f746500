import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seed } from '../../server/seed';
import { startApi, type TestApi } from './harness';
import { report } from './stats-helpers';

/** Issue #12: SEED and demo mode show a month of statistics, sent through the ingestion and rolled up. */
let api: TestApi;
let admin: string;
let ms = 0;

beforeAll(async () => {
  api = await startApi();
  const t0 = performance.now();
  await seed(api.database.db, api.config, { movies: 40, actresses: 3, now: api.clock.now() });
  ms = performance.now() - t0;
  admin = await api.login();
});
afterAll(() => api.close());

const MONTH = { from: '2026-05-03', to: '2026-06-01' }; // the harness clock's day in Shanghai and the 29 before

test('the events went through the ingestion and the rollup: raw rows and rollups agree', async () => {
  const [raw] = await api.query<{ n: number }>(
    sql`select count(*)::int as n from stat_events where type = 'pageview'`,
  );
  const r = await report(api, admin, 'domains', MONTH);
  expect(r.body.data.totals.pageViews).toBe(raw.n);
  expect(raw.n).toBeGreaterThan(2000);
  expect((await api.query(sql`select * from stat_fold_queue`)).length).toBe(0);
  expect(ms).toBeGreaterThan(0);
});

test('every report shows something: a long tail of keywords with a demand gap, domains, channels, regions, movies', async () => {
  const kw = (await report(api, admin, 'keywords', { ...MONTH, pageSize: '100' })).body.data;
  expect(kw.total).toBeGreaterThan(30);
  expect(kw.list[0].searches).toBeGreaterThan(kw.list[kw.list.length - 1].searches * 5); // a head and a tail
  const gap = (await report(api, admin, 'keywords', { ...MONTH, zeroOnly: 'true' })).body.data.list;
  expect(gap.map((x: any) => x.key)).toEqual(expect.arrayContaining(['鬼灭之刃', 'blue lock']));
  const domains = (await report(api, admin, 'domains', MONTH)).body.data;
  expect(domains.total).toBe(5);
  expect(domains.totals.newVisitors).toBeGreaterThan(0);
  const visits = (
    await report(api, admin, 'visits', { ...MONTH, domain: domains.list[0].key, dimension: 'channel' })
  ).body.data.list;
  expect(visits.length).toBeGreaterThanOrEqual(4);
  const regions = (
    await report(api, admin, 'visits', { ...MONTH, domain: domains.list[0].key, dimension: 'region' })
  ).body.data.list;
  expect(regions.map((x: any) => x.key)).toContain('广东省');
  const movies = (await report(api, admin, 'movies', MONTH)).body.data;
  expect(movies.total).toBeGreaterThan(5);
  expect(movies.totals.plays).toBeGreaterThan(0);
});

test('a daily and weekly rhythm: evenings busier than early mornings, every day of the month has visits', async () => {
  const hours = (
    await report(api, admin, 'domain-hours', {
      from: '2026-05-25',
      to: '2026-05-31',
      domain: 'www.yingtao.tv',
    })
  ).body.data.list;
  const at = (h: number) => hours.filter((x: any) => x.key.endsWith(` ${String(h).padStart(2, '0')}:00`));
  const sum = (rows: any[]) => rows.reduce((a, x) => a + x.pageViews, 0);
  expect(sum(at(21))).toBeGreaterThan(sum(at(4)) * 3);
  const series = (await report(api, admin, 'domains', MONTH)).body.data.series;
  expect(series).toHaveLength(30);
  for (const d of series) expect(d.pageViews).toBeGreaterThan(0);
  // Weekends busier than weekdays (today, still under way, left out).
  const mean = (weekend: boolean) => {
    const days = series
      .slice(0, -1)
      .filter((d: any) => [0, 6].includes(new Date(`${d.date}T00:00:00Z`).getUTCDay()) === weekend);
    return sum(days) / days.length;
  };
  expect(mean(true)).toBeGreaterThan(mean(false) * 1.15);
});
