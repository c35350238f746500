import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seed } from '../../server/seed';
import { startApi, type TestApi } from './harness';

/** Issue #13: SEED and demo mode show advertisers, positions with fallbacks, ~40 materials and a month of reports. */
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startApi();
  await seed(api.database.db, api.config, { movies: 10, actresses: 2, now: api.clock.now() });
  admin = await api.login();
});
afterAll(() => api.close());

const get = async (path: string) => (await api.call('GET', path, { token: admin })).body.data;

test('materials of every type, pricing model and state; each position has a fallback of its own', async () => {
  const ads = (await get('/app/admin/ad/ads?pageSize=100')).list as any[];
  expect(ads.length).toBe(40);
  for (const key of ['type', 'pricing', 'state'] as const)
    expect(new Set(ads.map((a) => a[key])).size, key).toBeGreaterThanOrEqual(3);
  const positions = (await get('/app/admin/ad/positions?pageSize=100')).list as any[];
  expect(positions).toHaveLength(5);
  for (const p of positions) expect(ads.find((a) => a.id === p.fallbackAdId)?.positionId).toBe(p.id);
  expect((await get('/app/admin/ad/advertisers')).total).toBe(4);
});

test('the reports show a month of traffic, revenue and idle inventory', async () => {
  const period = 'from=2026-05-03&to=2026-06-01';
  const byPosition = await get(`/app/admin/ad/reports/positions?${period}`);
  expect(byPosition.totals.impressions).toBeGreaterThan(1000);
  expect(byPosition.totals.revenue).toBeGreaterThan(0);
  expect(byPosition.list.some((r: any) => r.idle > 0)).toBe(true);
  const [raw] = await api.query<{ n: number }>(
    sql`select count(*)::int as n from stat_events where type = 'ad_impression' and object_type = 'ad'`,
  );
  expect(byPosition.totals.requests).toBe(raw.n);
});
