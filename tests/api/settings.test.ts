import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fieldLabel } from '../../server/core/i18n';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #2 §4 and SPEC.md §3: per-tenant system settings. */
let api: TestApi;
let admin: string;
let user: string;

const DEFAULT_PLATFORMS = [
  { key: 2, name: '樱桃' },
  { key: 1, name: '1号站' },
  { key: 4, name: '樱花' },
  { key: 5, name: '桃花' },
  { key: 6, name: '梅花' },
];

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
});
afterAll(() => api.close());

const getSetting = (tenant?: number | string, token = admin) =>
  api.call('GET', `/app/admin/sys/getSetting${tenant === undefined ? '' : `?tenant=${tenant}`}`, { token });
const save = (body: unknown, headers?: Record<string, string>) =>
  api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body, headers });

describe('getSetting', () => {
  test('defaults: imgdomain, platforms with keys 2, 1, 4, 5, 6 and their Chinese labels, version 0', async () => {
    const r = await getSetting(40);
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toEqual({ tenant: 40, version: 0, imgdomain: '', platforms: DEFAULT_PLATFORMS });
    for (const p of r.body.data.platforms) expect(p.name).toMatch(/[\u4e00-\u9fff]/);
  });

  test('the default tenant is 2', async () => {
    const r = await getSetting();
    expect(r.body.data.tenant).toBe(2);
    await save({ tenant: 2, marker: 'two' });
    expect((await getSetting()).body.data.marker).toBe('two');
    // And a save without a tenant goes to tenant 2.
    await save({ marker2: 'also two' });
    expect((await getSetting(2)).body.data).toMatchObject({ marker: 'two', marker2: 'also two' });
  });

  test('a malformed tenant is 40000 naming it', async () => {
    for (const t of ['abc', '0', '-1', '99999999', '1.5']) {
      const r = await getSetting(t);
      expect(r.body.code, t).toBe(40000);
      expect(Object.keys(r.body.data.fields)).toEqual(['tenant']);
    }
  });

  test('any operator may read, only an admin may write', async () => {
    expect((await getSetting(2, user)).body.code).toBe(20000);
    const r = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: user,
      body: { tenant: 2, imgdomain: '/x' },
    });
    expect(r.body.code).toBe(40300);
  });
});

describe('updateSetting', () => {
  test('round trip: known fields validated and saved, unknown fields kept as sent', async () => {
    const body = {
      tenant: 10,
      imgdomain: 'https://img.example.com',
      platforms: [
        { key: 7, name: '新站' },
        { key: 2, name: '樱桃' },
      ],
      theme: { color: '#f00', nested: { deep: [1, 'two', null, true] } },
      notice: '欢迎',
      flags: [1, 2, 3],
      count: 0,
      enabled: false,
      nothing: null,
    };
    const r = await save(body);
    expect(r.body.code).toBe(20000);
    const { tenant, ...rest } = body;
    expect(r.body.data).toEqual({ tenant, version: 1, ...rest });
    expect((await getSetting(10)).body.data).toEqual(r.body.data);
  });

  test('later partial saves keep earlier fields; defaults fill what was never saved', async () => {
    await save({ tenant: 11, notice: 'first', extra: 1 });
    await save({ tenant: 11, imgdomain: '/images' });
    await save({ tenant: 11, extra: 2 });
    const r = (await getSetting(11)).body.data;
    expect(r).toEqual({
      tenant: 11,
      version: 3,
      notice: 'first',
      extra: 2,
      imgdomain: '/images',
      platforms: DEFAULT_PLATFORMS,
    });
  });

  test('values are trimmed where the schema says so', async () => {
    const r = await save({
      tenant: 12,
      imgdomain: '  https://trim.example  ',
      platforms: [{ key: 3, name: '  三  ' }],
    });
    expect(r.body.data.imgdomain).toBe('https://trim.example');
    expect(r.body.data.platforms).toEqual([{ key: 3, name: '三' }]);
  });

  test('a wrong type is 40000 naming the field; nothing is saved', async () => {
    await save({ tenant: 13, notice: 'keep me' });
    const before = (await getSetting(13)).body.data;
    const cases: [unknown, string][] = [
      [{ tenant: 13, platforms: [{ key: 'x', name: 'a' }] }, 'platforms.0.key'],
      [{ tenant: 13, platforms: [{ key: 1, name: 'a' }, { key: 2 }] }, 'platforms.1.name'],
      [{ tenant: 13, platforms: [{ key: 1.5, name: 'a' }] }, 'platforms.0.key'],
      [{ tenant: 13, platforms: [{ key: 1, name: '   ' }] }, 'platforms.0.name'],
      [{ tenant: 13, platforms: 'all' }, 'platforms'],
      [{ tenant: 13, imgdomain: 42 }, 'imgdomain'],
      [{ tenant: 13, imgdomain: 'not a url' }, 'imgdomain'],
      [{ tenant: 13, imgdomain: 'javascript:alert(1)' }, 'imgdomain'],
      [{ tenant: 'thirteen' }, 'tenant'],
      [{ tenant: 0 }, 'tenant'],
      [{ tenant: 13, version: 'one' }, 'version'],
      [{ tenant: 13, version: -1 }, 'version'],
    ];
    for (const [body, field] of cases) {
      const r = await save(body, { 'Accept-Language': 'en-US' });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(body)).toContain(field);
      expect(r.body.msg).toContain(fieldLabel('en-US', field));
    }
    const typed = await save(
      { tenant: 13, platforms: [{ key: 'x', name: 'a' }] },
      { 'Accept-Language': 'en-US' },
    );
    expect(typed.body.data.fields['platforms.0.key']).toMatch(/number/);
    expect((await getSetting(13)).body.data).toEqual(before);
  });

  test('a body that is not an object is 40000', async () => {
    for (const body of [[], 'text', 42, null, true]) {
      const r = await save(body);
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
    }
  });

  test('duplicate platform keys are 40000 naming platforms', async () => {
    const r = await save({
      tenant: 14,
      platforms: [
        { key: 1, name: 'a' },
        { key: 1, name: 'b' },
      ],
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.data.fields).toHaveProperty('platforms');
    expect((await getSetting(14)).body.data.version).toBe(0);
  });

  test('tenants are independent', async () => {
    await save({ tenant: 20, imgdomain: 'https://twenty.example', own: 20 });
    await save({ tenant: 21, imgdomain: 'https://twentyone.example', own: 21 });
    const a = (await getSetting(20)).body.data;
    const b = (await getSetting(21)).body.data;
    expect(a).toMatchObject({ tenant: 20, imgdomain: 'https://twenty.example', own: 20, version: 1 });
    expect(b).toMatchObject({ tenant: 21, imgdomain: 'https://twentyone.example', own: 21, version: 1 });
    expect((await getSetting(22)).body.data).toEqual({
      tenant: 22,
      version: 0,
      imgdomain: '',
      platforms: DEFAULT_PLATFORMS,
    });
  });

  test('optimistic locking: the current version saves, a stale one is 40900 and nothing changes', async () => {
    const first = await save({ tenant: 30, version: 0, notice: 'v1' });
    expect(first.body.data.version).toBe(1);
    const second = await save({ tenant: 30, version: 1, notice: 'v2' });
    expect(second.body.data).toMatchObject({ version: 2, notice: 'v2' });
    const stale = await save({ tenant: 30, version: 1, notice: 'lost update', other: 1 });
    expect(stale.body.code).toBe(40900);
    expect((await getSetting(30)).body.data).toMatchObject({ version: 2, notice: 'v2' });
    expect((await getSetting(30)).body.data).not.toHaveProperty('other');
    // A first save that claims a version that never existed is stale too.
    expect((await save({ tenant: 31, version: 5, notice: 'x' })).body.code).toBe(40900);
    expect((await getSetting(31)).body.data.version).toBe(0);
  });

  test('two first saves of one tenant at once: one wins, the other is 40900', async () => {
    const [a, b] = await Promise.all([
      save({ tenant: 40, version: 0, who: 'a' }),
      save({ tenant: 40, version: 0, who: 'b' }),
    ]);
    expect([a.body.code, b.body.code].sort()).toEqual([20000, 40900]);
    const after = (await getSetting(40)).body.data;
    expect(after).toMatchObject({ version: 1, who: a.body.code === 20000 ? 'a' : 'b' });
  });
});
