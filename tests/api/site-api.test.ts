import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app';
import { silentLogger } from '../../server/core/logger';
import { schema } from '../../server/db/schema';
import type { Db } from '../../server/db/types';
import { etagMatches, freshness, SITE_MAX_AGE } from '../../server/modules/site/routes';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * Issue #5: the public site API. No Admin-Token; a per-tenant site key; the envelope; Cache-Control and ETag with
 * 304 on If-None-Match; an ETag that changes with every relevant write and when a notice starts or ends; public
 * settings only; a conditional request that costs one query whatever the admin traffic.
 */
let api: TestApi;
let admin: string;
let user: string;
let key: string;

const T0 = new Date('2026-06-01T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000).toISOString();

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
  key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data.key;
});
afterAll(() => api.close());

async function site(platform: number | string = 2, headers: Record<string, string> = {}) {
  const res = await api.app.request(`/app/site/config?platform=${platform}`, {
    headers: { 'Site-Key': key, ...headers },
  });
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) : null };
}

test('the OpenAPI document describes the site API: its key, its caching headers, its 304', async () => {
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  expect(doc.components.securitySchemes.SiteKey).toMatchObject({
    type: 'apiKey',
    in: 'header',
    name: 'Site-Key',
  });
  const op = doc.paths['/app/site/config'].get;
  expect(op.security).toEqual([{ SiteKey: [] }]);
  expect(Object.keys(op.responses).sort()).toEqual(['200', '304']);
  expect(Object.keys(op.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
  expect(op.description).toContain('If-None-Match');
});

describe('the site key', () => {
  test('an admin sees the key and makes a new one; the old one stops working at once', async () => {
    const seen = await api.call('GET', '/app/admin/setting/site-key', { token: admin });
    expect(seen.body.data.key).toBe(key);
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect((await site()).body.code).toBe(20000);
    const old = key;
    key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data.key;
    expect(key).not.toBe(old);
    expect((await site()).body.code).toBe(20000);
    const refused = await site(2, { 'Site-Key': old });
    expect(refused.body.code).toBe(40100);
  });

  test('a user can neither see nor regenerate it', async () => {
    expect((await api.call('GET', '/app/admin/setting/site-key', { token: user })).body.code).toBe(40300);
    expect(
      (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: user })).body.code,
    ).toBe(40300);
    expect((await site()).body.code).toBe(20000);
  });

  test('a missing, wrong or malformed key is 40100 in the envelope, never cached; an Admin-Token is no key', async () => {
    for (const headers of [
      { 'Site-Key': '' } as Record<string, string>,
      { 'Site-Key': 'sk_wrongwrongwrongwrongwrongwrongwrongwrong123' },
      { 'Site-Key': "' or 1=1 --" },
      { 'Site-Key': `${key}x` },
      { 'Site-Key': '', 'Admin-Token': admin },
    ]) {
      const r = await site(2, headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.body.code, JSON.stringify(headers)).toBe(40100);
      expect(r.body.data).toBeNull();
      expect(r.res.headers.get('cache-control')).toBe('no-store');
      expect(r.res.headers.get('etag')).toBeNull();
    }
    const en = await site(2, { 'Site-Key': 'nope', 'Accept-Language': 'en-US' });
    expect(en.body.msg).toBe('The site key is missing or wrong');
    // The key is checked before anything else: a wrong key with a bad platform is still 40100.
    expect((await site('abc', { 'Site-Key': 'nope' })).body.code).toBe(40100);
  });

  test('a bad platform is 40000, an unknown one 40400, neither cached', async () => {
    const bad = await site('abc');
    expect(bad.body.code).toBe(40000);
    const unknown = await site(77);
    expect(unknown.body.code).toBe(40400);
    expect(unknown.res.headers.get('cache-control')).toBe('no-store');
  });

  test('CORS: a preflight from another origin may send the key, and the ETag is exposed', async () => {
    const res = await api.app.request('/app/site/config?platform=2', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://site.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'site-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('site-key');
    const get = await site(2, { Origin: 'https://site.example' });
    expect(get.res.headers.get('access-control-expose-headers')).toContain('ETag');
  });

  test('an OPTIONS that is no preflight (no method asked) gets an envelope, not an empty 204', async () => {
    const res = await api.app.request('/app/site/config?platform=2', { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect((await res.json()).code).toBe(40100);
  });
});

describe('the answer', () => {
  test("public settings only (never another stored field), the platform's live notices, apps and statistics", async () => {
    api.clock.set(T0);
    await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: {
        imgdomain: 'https://img.example',
        siteName: '樱桃视频',
        contactEmail: 'hi@example.com',
        contactQQ: '12345',
        registrationOpen: false,
        paymentSecret: 'must-not-leak',
        smsApiKey: 'must-not-leak-either',
      },
    });
    const mk = (body: Record<string, unknown>) =>
      api.call('POST', '/app/admin/setting/notices', { token: admin, body });
    await mk({ type: 'marquee', title: 'm live', content: '维护', platforms: [2], startAt: at(-10) });
    await mk({
      type: 'popup',
      title: 'p live',
      content: '<p>hi</p>',
      platforms: [2, 4],
      startAt: at(-10),
      endAt: at(60),
    });
    await mk({ type: 'popup', title: 'p later', content: '<p>later</p>', platforms: [2], startAt: at(30) });
    await mk({
      type: 'popup',
      title: 'p over',
      content: '<p>over</p>',
      platforms: [2],
      startAt: at(-60),
      endAt: at(-1),
    });
    await mk({
      type: 'popup',
      title: 'p off',
      content: '<p>off</p>',
      platforms: [2],
      startAt: at(-10),
      enabled: false,
    });
    await mk({ type: 'popup', title: 'p elsewhere', content: '<p>4</p>', platforms: [4], startAt: at(-10) });
    const app = (body: Record<string, unknown>) =>
      api.call('POST', '/app/admin/setting/promotion-apps', { token: admin, body });
    await app({ name: 'UC', url: 'https://uc.example/dl', os: 'android', platforms: [2] });
    await app({ name: 'Safari', url: 'https://apple.example', os: 'ios', platforms: [2], enabled: false });
    await app({ name: 'Edge', url: 'https://edge.example', os: 'desktop', platforms: [4] });
    await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: {
        version: 0,
        events: { tagClick: false },
        sampleRate: 25,
        snippets: [{ platform: 2, code: '<script>var _hmt=[];</script>' }],
      },
    });

    const r = await site(2);
    expect(r.body.code).toBe(20000);
    const d = r.body.data;
    expect(JSON.stringify(d)).not.toContain('must-not-leak');
    expect(d.platform).toEqual({ key: 2, name: '樱桃' });
    expect(d.site).toEqual({
      name: '樱桃视频',
      logo: '',
      imgdomain: 'https://img.example',
      contact: { email: 'hi@example.com', phone: '', telegram: '', qq: '12345' },
      registrationOpen: false,
      commentsOpen: true,
    });
    expect(d.notices.marquee.map((n: any) => n.title)).toEqual(['m live']);
    expect(d.notices.popup.map((n: any) => n.title)).toEqual(['p live']);
    expect(d.notices.popup[0]).toEqual({
      id: expect.any(Number),
      title: 'p live',
      content: '<p>hi</p>',
      startAt: at(-10),
      endAt: at(60),
    });
    expect(d.apps.map((a: any) => [a.name, a.os])).toEqual([['UC', 'android']]);
    expect(d.statistics).toEqual({
      events: ['pageView', 'play', 'search', 'adImpression', 'adClick'],
      sampleRate: 25,
      snippet: '<script>var _hmt=[];</script>',
    });
    const four = (await site(4)).body.data;
    expect(four.notices.popup.map((n: any) => n.title).sort()).toEqual(['p elsewhere', 'p live']);
    expect(four.apps.map((a: any) => a.name)).toEqual(['Edge']);
    expect(four.statistics.snippet).toBe('');
  });
});

describe('caching', () => {
  test('ETag and Cache-Control; If-None-Match gives 304 with no body; msg follows the locale', async () => {
    api.clock.set(T0);
    const first = await site(2);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(first.res.headers.get('vary')).toContain('Site-Key');
    const again = await site(2, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.res.headers.get('etag')).toBe(etag);
    // A proxy that compressed the answer weakened or strengthened the tag: weak comparison still matches.
    expect((await site(2, { 'If-None-Match': etag.replace(/^W\//, '') })).status).toBe(304);
    expect((await site(2, { 'If-None-Match': `"other", ${etag}` })).status).toBe(304);
    // Another platform or another language is another answer.
    expect((await site(4, { 'If-None-Match': etag })).status).toBe(200);
    const en = await site(2, { 'If-None-Match': etag, 'Accept-Language': 'en-US' });
    expect(en.status).toBe(200);
    expect(en.body.msg).toBe('Success');
  });

  test('every relevant write changes the ETag: settings, notices, apps, statistics', async () => {
    api.clock.set(T0);
    const tag = async () => (await site(2)).res.headers.get('etag')!;
    const seen = new Set<string>([await tag()]);
    const changed = async (what: string) => {
      const t = await tag();
      expect(seen.has(t), what).toBe(false);
      seen.add(t);
    };
    await api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body: { siteName: '新名字' } });
    await changed('settings');
    const n = (
      await api.call('POST', '/app/admin/setting/notices', {
        token: admin,
        body: { type: 'marquee', title: 'etag', content: 'x', platforms: [5], startAt: at(-1) },
      })
    ).body.data;
    await changed('notice created (even on another platform)');
    await api.call('POST', '/app/admin/setting/notices/batch', {
      token: admin,
      body: { action: 'disable', ids: [n.id] },
    });
    await changed('notice disabled');
    const a = (
      await api.call('POST', '/app/admin/setting/promotion-apps', {
        token: admin,
        body: { name: 'etag app', url: 'https://x.example', os: 'android', platforms: [2] },
      })
    ).body.data;
    await changed('app created');
    await api.call('DELETE', `/app/admin/setting/promotion-apps/${a.id}`, { token: admin });
    await changed('app deleted');
    const v = (await api.call('GET', '/app/admin/setting/statistics', { token: admin })).body.data.version;
    await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: { version: v, sampleRate: 50 },
    });
    await changed('statistics saved');
    // Reads and refused writes change nothing.
    const before = await tag();
    await api.call('GET', '/app/admin/setting/notices', { token: admin });
    await api.call('POST', '/app/admin/setting/notices', { token: user, body: {} });
    await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: { version: 0, sampleRate: 1 },
    });
    expect(await tag()).toBe(before);
  });

  test('a notice starting or ending changes the answer and the ETag without any write; max-age stops at it', async () => {
    api.clock.set(T0);
    const n = (
      await api.call('POST', '/app/admin/setting/notices', {
        token: admin,
        body: {
          type: 'popup',
          title: 'scheduled',
          content: '<p>soon</p>',
          platforms: [6],
          startAt: new Date(T0.getTime() + 30_000).toISOString(),
          endAt: new Date(T0.getTime() + 90_000).toISOString(),
        },
      })
    ).body.data;
    const before = await site(6);
    expect(before.body.data.notices.popup.map((x: any) => x.id)).not.toContain(n.id);
    expect(before.res.headers.get('cache-control')).toBe('public, max-age=30'); // not past the start
    const etag = before.res.headers.get('etag')!;
    api.clock.set(new Date(T0.getTime() + 29_999));
    expect((await site(6, { 'If-None-Match': etag })).status).toBe(304);
    api.clock.set(new Date(T0.getTime() + 30_000));
    const live = await site(6, { 'If-None-Match': etag });
    expect(live.status).toBe(200);
    expect(live.body.data.notices.popup.map((x: any) => x.id)).toContain(n.id);
    const liveTag = live.res.headers.get('etag')!;
    expect(liveTag).not.toBe(etag);
    expect(live.res.headers.get('cache-control')).toBe('public, max-age=60');
    api.clock.set(new Date(T0.getTime() + 90_000));
    const over = await site(6, { 'If-None-Match': liveTag });
    expect(over.status).toBe(200);
    expect(over.body.data.notices.popup.map((x: any) => x.id)).not.toContain(n.id);
    api.clock.set(T0);
  });

  test('freshness and etagMatches: pure rules', () => {
    const head = { tenant: 2, siteVersion: 7, boundaries: [new Date(1000), new Date(5000)] };
    const a = freshness(head, 2, 'zh-CN', new Date(999));
    const b = freshness(head, 2, 'zh-CN', new Date(1000));
    const c = freshness(head, 2, 'zh-CN', new Date(4999));
    expect(a.etag).not.toBe(b.etag);
    expect(b.etag).toBe(c.etag);
    expect(a.cacheControl).toBe('public, max-age=0');
    expect(c.cacheControl).toBe('public, max-age=0');
    expect(freshness(head, 2, 'zh-CN', new Date(0)).cacheControl).toBe('public, max-age=1');
    expect(freshness(head, 2, 'zh-CN', new Date(6000)).cacheControl).toBe(`public, max-age=${SITE_MAX_AGE}`);
    expect(freshness({ ...head, siteVersion: 8 }, 2, 'zh-CN', new Date(1000)).etag).not.toBe(b.etag);
    expect(etagMatches('*', 'W/"x"')).toBe(true);
    expect(etagMatches(undefined, 'W/"x"')).toBe(false);
    expect(etagMatches('"y"', 'W/"x"')).toBe(false);
  });

  test('a conditional request is one query, however many operators and sessions there are', async () => {
    let queries = 0;
    const logger = { logQuery: () => void queries++ };
    const client = (api.database.db as unknown as { $client: any }).$client;
    const db = (api.database.driver === 'pglite'
      ? drizzlePglite(client, { schema, logger })
      : drizzleNodePg(client, { schema, logger })) as unknown as Db;
    const counted = createApp({
      db,
      config: api.config,
      clock: api.clock,
      logger: silentLogger,
      clientAddress: () => '10.0.0.9',
      images: api.images,
    });
    const ask = (etag?: string) =>
      counted.request('/app/site/config?platform=2', {
        headers: { 'Site-Key': key, ...(etag ? { 'If-None-Match': etag } : {}) },
      });
    const etag = (await ask()).headers.get('etag')!;
    const measure = async () => {
      queries = 0;
      const res = await ask(etag);
      expect(res.status).toBe(304);
      return queries;
    };
    expect(await measure()).toBe(1);
    for (let i = 0; i < 20; i++) await api.createOperator(admin, { account: `many${i}` });
    for (let i = 0; i < 10; i++) await api.login('reader', USER_PASSWORD);
    for (let i = 0; i < 20; i++) await api.call('GET', '/app/admin/setting/notices', { token: admin });
    expect(await measure()).toBe(1);
    // A full answer is a handful of queries, also independent of operators.
    queries = 0;
    expect((await ask()).status).toBe(200);
    expect(queries).toBeLessThanOrEqual(7);
  });

  test('concurrent notice writes: every start and end ends up among the boundaries (no lost update)', async () => {
    api.clock.set(T0);
    const starts = [11, 12, 13, 14, 15, 16].map((m) => at(m));
    const answers = await Promise.all(
      starts.map((startAt) =>
        api.call('POST', '/app/admin/setting/notices', {
          token: admin,
          body: { type: 'marquee', title: 'race', content: 'x', platforms: [1], startAt, endAt: at(100) },
        }),
      ),
    );
    for (const a of answers) expect(a.body.code).toBe(20000);
    const [row] = await api.query<{ b: string[] }>(
      sql`select array(select to_char(x at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from unnest(boundaries) x) as b
          from site_state where tenant = 2`,
    );
    for (const s of [...starts, at(100)]) expect(row.b).toContain(s);
  });
});

describe('hostile requests with a valid key', () => {
  test('any platform, header or query gets an envelope or a 304, never a server error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 40 }),
        fc.constantFrom('', '&platform=2', '&x=1', '&platform=1&platform=2'),
        async (platform, inm, extra) => {
          const res = await api.app.request(
            `/app/site/config?platform=${encodeURIComponent(platform)}${extra}`,
            {
              headers: { 'Site-Key': key, 'If-None-Match': inm.replace(/[^\x20-\x7e]/g, '') },
            },
          );
          if (res.status === 304) return true;
          const body = JSON.parse(await res.text());
          return res.status === 200 && typeof body.code === 'number' && body.code !== 50000;
        },
      ),
      { numRuns: 200 },
    );
  });
});
