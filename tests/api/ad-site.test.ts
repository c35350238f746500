import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADS, adFixture, createAd, material, POSITIONS } from './ad-helpers';
import { startApi, type TestApi } from './harness';

/** Issue #13: the site reads its positions' live materials — key, caching (ETag, 304), schedule, tenant isolation. */
let api: TestApi;
let admin: string;
let key: string;
let fx: { positionId: number; advertiserId: number };
const SITE = '/app/site/ads';

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data.key;
  fx = await adFixture(api, admin, 'banner');
});
afterAll(() => api.close());

const read = (query = 'platform=2', headers: Record<string, string> = {}) =>
  api.app.request(`${SITE}?${query}`, { headers: { 'Site-Key': key, ...headers } });

describe('the site ads answer', () => {
  test('a missing or wrong key is 40100, never cached; a bad platform is 40000', async () => {
    const none = await api.app.request(`${SITE}?platform=2`);
    expect((await none.json()).code).toBe(40100);
    expect(none.headers.get('cache-control')).toBe('no-store');
    expect(
      (await (await read('platform=2', { 'Site-Key': 'sk_wrongwrongwrongwrongwrong' })).json()).code,
    ).toBe(40100);
    expect((await (await read('platform=x')).json()).code).toBe(40000);
    expect((await (await read('platform=2&device=tv')).json()).code).toBe(40000);
  });

  test('live materials on the platform and device, by weight, with the fallback apart', async () => {
    const now = api.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const heavy = await createAd(
      api,
      admin,
      material(fx, { title: 'heavy', weight: 9, startAt: at(-1000), endAt: null }),
    );
    await createAd(
      api,
      admin,
      material(fx, { title: 'light', weight: 1, startAt: at(-1000), endAt: null, platforms: [2] }),
    );
    await createAd(
      api,
      admin,
      material(fx, { title: 'other platform', startAt: at(-1000), endAt: null, platforms: [4] }),
    );
    await createAd(
      api,
      admin,
      material(fx, { title: 'desktop', startAt: at(-1000), endAt: null, device: 'desktop' }),
    );
    await createAd(
      api,
      admin,
      material(fx, { title: 'paused', startAt: at(-1000), endAt: null, enabled: false }),
    );
    await createAd(api, admin, material(fx, { title: 'later', startAt: at(60_000), endAt: null }));
    const house = await createAd(
      api,
      admin,
      material(fx, { title: 'house', price: 0, startAt: at(-1000), endAt: null }),
    );
    const pos = (await api.call('GET', `${POSITIONS}/${fx.positionId}`, { token: admin })).body.data;
    await api.call('PUT', `${POSITIONS}/${fx.positionId}`, {
      token: admin,
      body: { fallbackAdId: house.id, version: pos.version },
    });
    const body = await (await read('platform=2&device=mobile')).json();
    const p = body.data.positions.find((x: any) => x.key === 'banner');
    expect(p.ads.map((a: any) => a.title)).toEqual(['heavy', 'light']);
    expect(p.fallback.title).toBe('house');
    expect(p.ads[0]).toEqual({
      id: heavy.id,
      title: 'heavy',
      type: 'image',
      creative: heavy.creative,
      body: '',
      landingUrl: heavy.landingUrl,
      weight: 9,
    });
    const desktop = await (await read('platform=2&device=desktop')).json();
    expect(desktop.data.positions[0].ads.map((a: any) => a.title)).toEqual(['heavy', 'light', 'desktop']);
  });

  test('ETag and 304; an edit gives a new ETag; a start passing gives a new one without any write', async () => {
    const first = await read();
    const etag = first.headers.get('etag') as string;
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    // "later" starts in 60 s: the answer may not be kept past it
    expect(Number(first.headers.get('cache-control')?.split('=')[1])).toBeLessThanOrEqual(60);
    const again = await read('platform=2', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    // an edit
    const [ad] = (await api.call('GET', `${ADS}?q=heavy`, { token: admin })).body.data.list;
    await api.call('PUT', `${ADS}/${ad.id}`, { token: admin, body: { weight: 8, version: ad.version } });
    const edited = await read('platform=2', { 'If-None-Match': etag });
    expect(edited.status).toBe(200);
    const etag2 = edited.headers.get('etag') as string;
    expect(etag2).not.toBe(etag);
    expect((await read('platform=2', { 'If-None-Match': etag2 })).status).toBe(304);
    // the clock passes "later"'s start: new ETag, and it is live
    api.clock.advance(61_000);
    const started = await read('platform=2', { 'If-None-Match': etag2 });
    expect(started.status).toBe(200);
    expect((await started.json()).data.positions[0].ads.map((a: any) => a.title)).toContain('later');
  });

  test('tenant isolation: another tenant key sees only its own ads', async () => {
    await api.query(
      sql`insert into site_state (tenant, site_key, site_version) values (3, 'sk_othertenantkey0000000000', 1)`,
    );
    await api.query(
      sql`insert into ad_positions (tenant, name, key, type) values (3, 'T3', 'banner', 'image')`,
    );
    const [p3] = await api.query<{ id: number }>(sql`select id from ad_positions where tenant = 3`);
    await api.query(sql`insert into ads (tenant, title, type, creative, landing_url, position_id, start_at, pricing)
      values (3, 'tenant three', 'image', 'https://x.example/a.png', 'https://t3.example', ${p3.id}, '2026-05-01T00:00:00Z', 'cpm')`);
    const mine = await (await read()).json();
    expect(JSON.stringify(mine)).not.toContain('tenant three');
    const theirs = await (await read('platform=2', { 'Site-Key': 'sk_othertenantkey0000000000' })).json();
    expect(theirs.data.positions.map((x: any) => x.name)).toEqual(['T3']);
    expect(theirs.data.positions[0].ads.map((a: any) => a.title)).toEqual(['tenant three']);
    // nor does the admin of tenant 2 see them
    const list = (await api.call('GET', `${ADS}?pageSize=100`, { token: admin })).body.data.list;
    expect(list.map((a: any) => a.title)).not.toContain('tenant three');
    expect((await api.call('GET', `${POSITIONS}/${p3.id}`, { token: admin })).body.code).toBe(40400);
  });
});
