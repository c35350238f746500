import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { monthlyShare } from '../../server/modules/ad/reports';
import { ADS, adFixture, createAd, material, POSITIONS } from './ad-helpers';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { event, rollup, siteSender } from './stats-helpers';

/** Issue #13 reports: from the rollups only; revenue per pricing model, idle inventory, periods, roles. */
let api: TestApi;
let admin: string;
let user: string;
let send: Awaited<ReturnType<typeof siteSender>>;
const ids: Record<string, number> = {};
let fx: { positionId: number; advertiserId: number };
const R = '/app/admin/ad/reports';

const many = (n: number, type: string, ad: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) =>
    event({ type, object: { type: 'ad', id: ad }, visitor: `rv${i % 50}`, ...extra }),
  );

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
  send = await siteSender(api, admin);
  fx = await adFixture(api, admin, 'rep');
  const at = { startAt: '2026-05-01T00:00:00+08:00', endAt: null };
  ids.cpm = (await createAd(api, admin, material(fx, { title: 'cpm', pricing: 'cpm', price: 10, ...at }))).id;
  ids.cpc = (
    await createAd(api, admin, material(fx, { title: 'cpc', pricing: 'cpc', price: 0.5, ...at }))
  ).id;
  ids.cpa = (await createAd(api, admin, material(fx, { title: 'cpa', pricing: 'cpa', price: 20, ...at }))).id;
  ids.monthly = (
    await createAd(api, admin, material(fx, { title: 'monthly', pricing: 'monthly', price: 3000, ...at }))
  ).id;
  ids.house = (
    await createAd(api, admin, material(fx, { title: 'house', pricing: 'cpm', price: 0, ...at }))
  ).id;
  const pos = (await api.call('GET', `${POSITIONS}/${fx.positionId}`, { token: admin })).body.data;
  await api.call('PUT', `${POSITIONS}/${fx.positionId}`, {
    token: admin,
    body: { fallbackAdId: ids.house, version: pos.version },
  });
  const batch = [
    ...many(200, 'ad_impression', ids.cpm),
    ...many(100, 'ad_impression', ids.cpc),
    ...many(4, 'ad_click', ids.cpc),
    ...many(50, 'ad_impression', ids.cpa),
    ...many(1, 'signup', ids.cpa),
    ...many(1, 'recharge', ids.cpa, { amount: 30 }),
    ...many(50, 'ad_impression', ids.monthly),
    ...many(100, 'ad_impression', ids.house),
    // the day before (2026-05-31 in Shanghai)
    ...many(100, 'ad_impression', ids.cpm, { time: '2026-05-31T07:30:00Z' }),
  ];
  for (let i = 0; i < batch.length; i += 500) {
    const r = await send(batch.slice(i, i + 500));
    expect(r.body.data.accepted).toBe(Math.min(500, batch.length - i));
  }
  await rollup(api, admin);
});
afterAll(() => api.close());

const get = async (path: string, token = admin) => (await api.call('GET', `${R}/${path}`, { token })).body;

describe('revenue per pricing model', () => {
  test('CPM per thousand impressions, CPC per click, CPA per signup or recharge, monthly per booked day', async () => {
    expect(monthlyShare(3000, '2026-06-01')).toBe(100);
    expect(monthlyShare(3100, '2026-05-31')).toBe(100);
    const r = (name: string) => get(`material?adId=${ids[name]}&from=2026-06-01&to=2026-06-01`);
    expect((await r('cpm')).data.totals).toMatchObject({ impressions: 200, revenue: 2, ecpm: 10 });
    expect((await r('cpc')).data.totals).toMatchObject({
      impressions: 100,
      clicks: 4,
      revenue: 2,
      cpc: 0.5,
      ctr: 0.04,
    });
    expect((await r('cpa')).data.totals).toMatchObject({ revenue: 40 });
    expect((await r('monthly')).data.totals).toMatchObject({ revenue: 100, impressions: 50, ecpm: 2000 });
    const house = (await r('house')).data.totals;
    expect(house).toMatchObject({ requests: 100, impressions: 0, revenue: 0 });
  });

  test('unique clickers come from the sketches', async () => {
    const t = (await get(`material?adId=${ids.cpc}&from=2026-06-01&to=2026-06-01`)).data.totals;
    expect(t.clickers).toBe(4);
  });
});

describe('overview, daily and idle inventory', () => {
  test('per position: requests include the fallback; idle = fallback impressions × average eCPM', async () => {
    const body = await get('positions?from=2026-06-01&to=2026-06-01');
    const row = body.data.list.find((x: any) => x.key === String(fx.positionId));
    // booked: 200 + 100 + 50 + 50 = 400 impressions, revenue 2 + 2 + 40 + 100 = 144 → eCPM 360
    expect(row).toMatchObject({
      label: '位置 rep',
      requests: 500,
      impressions: 400,
      revenue: 144,
      ecpm: 360,
      clickers: 4,
    });
    expect(body.data.totals.clickers).toBe(4);
    expect(row.idle).toBe(36); // 100 fallback impressions × 360 / 1000
    expect(body.data.totals).toMatchObject({ requests: 500, revenue: 144 });
  });

  test('per advertiser, with the previous period when comparing', async () => {
    const body = await get('advertisers?from=2026-06-01&to=2026-06-01&compare=true');
    const row = body.data.list.find((x: any) => x.key === String(fx.advertiserId));
    expect(row.revenue).toBe(144);
    // the day before: 100 CPM impressions (1.00) and the monthly ad's day (3000 / 31)
    expect(row.previous.revenue).toBeCloseTo(1 + 3000 / 31, 2);
    expect(body.data.previousTotals.impressions).toBe(100);
  });

  test('daily: a row per day with the day before when comparing, totals and series', async () => {
    const body = await get('daily?from=2026-05-31&to=2026-06-01&compare=true&sort=key&order=asc');
    expect(body.data.list.map((x: any) => x.key)).toEqual(['2026-05-31', '2026-06-01']);
    const [d1, d2] = body.data.list;
    expect(d2.previous.impressions).toBe(d1.impressions);
    expect(d2.impressions).toBe(400);
    expect(body.data.series.map((x: any) => x.date)).toEqual(['2026-05-31', '2026-06-01']);
    expect(body.data.totals.impressions).toBe(500);
  });

  test('advertiser and position daily name their record', async () => {
    const a = await get(`advertiser?advertiserId=${fx.advertiserId}&from=2026-06-01&to=2026-06-01`);
    expect(a.data.totals.revenue).toBe(144);
    const p = await get(`position?positionId=${fx.positionId}&from=2026-06-01&to=2026-06-01`);
    expect(p.data.list[0]).toMatchObject({ key: '2026-06-01', requests: 500, idle: 36 });
  });
});

describe('bad input and roles', () => {
  test('40000 naming the field; any operator reads; no session is refused', async () => {
    const cases: [string, string][] = [
      ['daily?from=2026-06-02&to=2026-06-01', 'to'],
      ['daily?from=2025-01-01&to=2026-06-01', 'to'],
      ['daily?from=yesterday', 'from'],
      ['daily?sort=money', 'sort'],
      ['daily?foo=1', 'foo'],
      ['material', 'adId'],
      ['position?positionId=x', 'positionId'],
    ];
    for (const [path, field] of cases) {
      const r = await get(path);
      expect(r.code, path).toBe(40000);
      expect(Object.keys(r.data.fields), path).toContain(field);
    }
    expect((await get('positions', user)).code).toBe(20000);
    expect((await api.call('GET', `${R}/daily`)).body.code).toBe(50008);
  });
});

describe('answers kept between reads (report-cache.ts)', () => {
  test('kept until a material changes or a day is rolled up again', async () => {
    const q = 'materials?from=2026-06-01&to=2026-06-01&pageSize=100';
    const cpmRow = async () => (await get(q)).data.list.find((r: any) => r.key === String(ids.cpm));
    expect(await cpmRow()).toMatchObject({ impressions: 200, revenue: 2 });
    // behind the rollup's back: a kept answer does not see it
    await api.query(
      sql`update stat_object_daily set impressions = 999 where object_type = 'ad' and object_id = ${ids.cpm} and day = '2026-06-01'`,
    );
    expect((await cpmRow()).impressions).toBe(200);
    // a changed material (its price) is a new answer, read from the rollups as they are now
    const ad = (await api.call('GET', `${ADS}/${ids.cpm}`, { token: admin })).body.data;
    const put = await api.call('PUT', `${ADS}/${ids.cpm}`, {
      token: admin,
      body: {
        ...material(fx, { title: 'cpm', pricing: 'cpm', price: 20 }),
        startAt: ad.startAt,
        endAt: ad.endAt,
        version: ad.version,
      },
    });
    expect(put.body.code).toBe(20000);
    expect(await cpmRow()).toMatchObject({ impressions: 999, revenue: 19.98 });
    // a rollup of the day recomputes it from the raw events
    await send(many(1, 'ad_impression', ids.cpm));
    await rollup(api, admin);
    expect(await cpmRow()).toMatchObject({ impressions: 201, revenue: 4.02 });
  });
});
