import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #5: promotion apps — validation, positions, reorder in one transaction, batch, roles. */
let api: TestApi;
let admin: string;
let user: string;

const BASE = '/app/admin/setting/promotion-apps';

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
});
afterAll(() => api.close());

const create = (body: Record<string, unknown>, token = admin) => api.call('POST', BASE, { token, body });
const app = (over: Record<string, unknown> = {}) => ({
  name: 'UC 浏览器',
  url: 'https://uc.example/download',
  os: 'android',
  platforms: [2],
  ...over,
});
const list = async (q = '') =>
  (await api.call('GET', `${BASE}?pageSize=100${q}`, { token: admin })).body.data.list as any[];
const clear = () => api.query(sql`delete from promotion_apps`);

describe('create and validate', () => {
  test('new apps go last; defaults: no icon, enabled', async () => {
    await clear();
    const a = (await create(app({ name: 'A' }))).body.data;
    const b = (await create(app({ name: 'B' }))).body.data;
    expect(a).toMatchObject({ name: 'A', icon: '', enabled: true, sort: 1, os: 'android', platforms: [2] });
    expect(b.sort).toBe(2);
    expect((await list()).map((x) => x.name)).toEqual(['A', 'B']);
  });

  test('bad input is 40000 naming the field: the URL must be http(s), the icon an upload or http(s)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [app({ url: 'javascript:alert(1)' }), 'url'],
      [app({ url: 'ftp://files.example/app.apk' }), 'url'],
      [app({ url: 'uc.example/download' }), 'url'],
      [app({ url: 'https://' }), 'url'],
      [app({ url: 'https://exa mple.com' }), 'url'],
      [app({ url: '' }), 'url'],
      [app({ icon: 'data:image/png;base64,AAAA' }), 'icon'],
      [app({ icon: '/etc/passwd' }), 'icon'],
      [app({ os: 'symbian' }), 'os'],
      [app({ name: '' }), 'name'],
      [app({ name: 'x'.repeat(65) }), 'name'],
      [app({ platforms: [] }), 'platforms'],
      [app({ platforms: [42] }), 'platforms.0'],
      [app({ sort: -1 }), 'sort'],
    ];
    for (const [body, field] of cases) {
      const r = await api.call('POST', BASE, { token: admin, body, headers: { 'Accept-Language': 'en-US' } });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(body)).toContain(field);
    }
    const zh = await create(app({ url: 'ftp://x' }));
    expect(zh.body.msg).toContain('应为 http:// 或 https:// 开头的地址');
    const ok = await create(
      app({ icon: '/upload/2026/06/0123456789abcdef0123456789abcdef.png', url: 'http://plain.example' }),
    );
    expect(ok.body.code).toBe(20000);
  });

  test('filters and sorts are allow-listed', async () => {
    await clear();
    await create(app({ name: 'Chrome', os: 'desktop', platforms: [4] }));
    await create(app({ name: 'Safari', os: 'ios', platforms: [2, 4], enabled: false }));
    expect((await list('&os=ios')).map((x) => x.name)).toEqual(['Safari']);
    expect((await list('&platform=4&sort=name&order=desc')).map((x) => x.name)).toEqual(['Safari', 'Chrome']);
    expect((await list('&enabled=false')).map((x) => x.name)).toEqual(['Safari']);
    expect((await list('&q=chr')).map((x) => x.name)).toEqual(['Chrome']);
    for (const q of ['os=nokia', 'enabled=maybe', 'sort=url', 'foo=1']) {
      expect((await api.call('GET', `${BASE}?${q}`, { token: admin })).body.code, q).toBe(40000);
    }
  });
});

describe('order', () => {
  test('reorder: positions 1, 2, 3 in the given order; only moved apps change version', async () => {
    await clear();
    const [a, b, c] = [
      (await create(app({ name: 'a' }))).body.data,
      (await create(app({ name: 'b' }))).body.data,
      (await create(app({ name: 'c' }))).body.data,
    ];
    const r = await api.call('POST', `${BASE}/reorder`, { token: admin, body: { ids: [c.id, a.id, b.id] } });
    expect(r.body).toMatchObject({ code: 20000, data: { changed: 3 } });
    const after = await list();
    expect(after.map((x) => [x.name, x.sort, x.version])).toEqual([
      ['c', 1, 2],
      ['a', 2, 2],
      ['b', 3, 2],
    ]);
    // Moving one back to the end: only the ones whose position changes are touched.
    const again = await api.call('POST', `${BASE}/reorder`, {
      token: admin,
      body: { ids: [c.id, b.id, a.id] },
    });
    expect(again.body.data.changed).toBe(2);
    expect((await list()).map((x) => [x.name, x.version])).toEqual([
      ['c', 2],
      ['b', 3],
      ['a', 3],
    ]);
    // The same order again changes nothing.
    expect(
      (await api.call('POST', `${BASE}/reorder`, { token: admin, body: { ids: [c.id, b.id, a.id] } })).body
        .data.changed,
    ).toBe(0);
  });

  test('an order that is not exactly the current apps is 40900 (stale screen) and changes nothing', async () => {
    await clear();
    const a = (await create(app({ name: 'a' }))).body.data;
    const b = (await create(app({ name: 'b' }))).body.data;
    const before = await list();
    for (const ids of [[a.id], [b.id, a.id, 999999], [b.id, 999999]]) {
      const r = await api.call('POST', `${BASE}/reorder`, { token: admin, body: { ids } });
      expect(r.body.code, JSON.stringify(ids)).toBe(40900);
    }
    const dup = await api.call('POST', `${BASE}/reorder`, { token: admin, body: { ids: [a.id, a.id] } });
    expect(dup.body.code).toBe(40000);
    expect(await list()).toEqual(before);
  });

  test('a number typed in the form moves one app; a stale version is 40900', async () => {
    await clear();
    const a = (await create(app({ name: 'a' }))).body.data;
    const moved = await api.call('PUT', `${BASE}/${a.id}`, { token: admin, body: { sort: 50, version: 1 } });
    expect(moved.body.data).toMatchObject({ sort: 50, version: 2 });
    const stale = await api.call('PUT', `${BASE}/${a.id}`, { token: admin, body: { name: 'x', version: 1 } });
    expect(stale.body.code).toBe(40900);
  });
});

describe('batch and roles', () => {
  test('batch enable/disable/delete is all or nothing', async () => {
    await clear();
    const a = (await create(app({ name: 'a' }))).body.data;
    const b = (await create(app({ name: 'b' }))).body.data;
    const r = await api.call('POST', `${BASE}/batch`, {
      token: admin,
      body: { action: 'disable', ids: [a.id, b.id] },
    });
    expect(r.body.data.changed).toBe(2);
    const bad = await api.call('POST', `${BASE}/batch`, {
      token: admin,
      body: { action: 'delete', ids: [a.id, 424242] },
    });
    expect(bad.body.code).toBe(40400);
    expect((await list()).length).toBe(2);
    const del = await api.call('POST', `${BASE}/batch`, {
      token: admin,
      body: { action: 'delete', ids: [a.id] },
    });
    expect(del.body.data.changed).toBe(1);
    expect((await list()).map((x) => x.name)).toEqual(['b']);
  });

  test('a user reads but cannot write, reorder or batch', async () => {
    await clear();
    const a = (await create(app())).body.data;
    expect((await api.call('GET', BASE, { token: user })).body.code).toBe(20000);
    expect((await create(app(), user)).body.code).toBe(40300);
    expect(
      (await api.call('POST', `${BASE}/reorder`, { token: user, body: { ids: [a.id] } })).body.code,
    ).toBe(40300);
    expect((await api.call('DELETE', `${BASE}/${a.id}`, { token: user })).body.code).toBe(40300);
    expect((await list()).length).toBe(1);
  });

  test(`at most 100 apps`, async () => {
    await clear();
    await api.query(sql`
      insert into promotion_apps (tenant, name, url, os, platforms, sort)
      select 2, 'bulk ' || g, 'https://x.example', 'android', '{2}', g from generate_series(1, 100) g`);
    const r = await create(app());
    expect(r.body.code).toBe(40000);
    expect(r.body.msg).toContain('100');
  });
});
