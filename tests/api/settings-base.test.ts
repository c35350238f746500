import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #5: the base settings' own fields, platform usage before a removal, and the statistics settings. */
let api: TestApi;
let admin: string;
let user: string;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
});
afterAll(() => api.close());

const save = (body: Record<string, unknown>, token = admin) =>
  api.call('POST', '/app/admin/sys/updateSetting', {
    token,
    body,
    headers: { 'Accept-Language': 'en-US' },
  });

describe('base settings fields', () => {
  test('site name, logo, contacts and switches are checked and saved; other stored fields are kept', async () => {
    await save({ tenant: 50, legacyFlag: 'keep me' });
    const r = await save({
      tenant: 50,
      siteName: ' 樱桃视频 ',
      logo: '/upload/2026/06/0123456789abcdef0123456789abcdef.webp',
      contactEmail: 'ops@example.com',
      contactPhone: '+86 (10) 1234-5678',
      contactTelegram: '@cherry',
      contactQQ: '10001',
      registrationOpen: false,
      commentsOpen: true,
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      siteName: '樱桃视频',
      contactEmail: 'ops@example.com',
      registrationOpen: false,
      legacyFlag: 'keep me',
    });
  });

  test('bad values are 40000 naming the field; nothing is saved', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ siteName: 'x'.repeat(65) }, 'siteName'],
      [{ logo: 'javascript:alert(1)' }, 'logo'],
      [{ logo: '/upload/../../secret' }, 'logo'],
      [{ contactEmail: 'not an email' }, 'contactEmail'],
      [{ contactPhone: 'call me' }, 'contactPhone'],
      [{ contactQQ: 'abc' }, 'contactQQ'],
      [{ registrationOpen: 'yes' }, 'registrationOpen'],
      [{ commentsOpen: 1 }, 'commentsOpen'],
    ];
    for (const [body, field] of cases) {
      const r = await save({ tenant: 51, ...body });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.body.data.fields)).toContain(field);
    }
    expect(
      (await api.call('GET', '/app/admin/sys/getSetting?tenant=51', { token: admin })).body.data.version,
    ).toBe(0);
  });

  test('a user cannot save them', async () => {
    expect((await save({ siteName: 'x' }, user)).body.code).toBe(40300);
  });
});

describe('platform usage', () => {
  test('counts movies, notices, promotion apps and statistics snippets per platform key', async () => {
    const movie = (platforms: number[]) =>
      api.call('POST', '/app/admin/movie/movies', {
        token: admin,
        body: { title: `m ${platforms}`, platforms },
      });
    for (const p of [[4], [4, 5], [5], [4]]) expect((await movie(p)).body.code).toBe(20000);
    const notice = (platforms: number[]) =>
      api.call('POST', '/app/admin/setting/notices', {
        token: admin,
        body: { type: 'marquee', title: 'n', content: 'x', platforms, startAt: '2026-06-01T00:00:00Z' },
      });
    await notice([4]);
    await notice([4, 6]);
    await api.call('POST', '/app/admin/setting/promotion-apps', {
      token: admin,
      body: { name: 'a', url: 'https://a.example', os: 'ios', platforms: [6] },
    });
    await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: { version: 0, snippets: [{ platform: 4, code: '<script></script>' }] },
    });
    const r = await api.call('GET', '/app/admin/setting/platform-usage?keys=4,5,6,1', { token: admin });
    expect(r.body.code).toBe(20000);
    expect(r.body.data.usage).toEqual([
      { key: 4, movies: 3, notices: 2, apps: 0, snippets: 1, ads: 0, total: 6 },
      { key: 5, movies: 2, notices: 0, apps: 0, snippets: 0, ads: 0, total: 2 },
      { key: 6, movies: 0, notices: 1, apps: 1, snippets: 0, ads: 0, total: 2 },
      { key: 1, movies: 0, notices: 0, apps: 0, snippets: 0, ads: 0, total: 0 },
    ]);
    // A movie deleted is no longer counted.
    const [{ id }] = await api.query<{ id: number }>(
      sql`select id from movies where 5 = any(platforms) limit 1`,
    );
    await api.call('DELETE', `/app/admin/movie/movies/${id}`, { token: admin });
    const after = await api.call('GET', '/app/admin/setting/platform-usage?keys=5', { token: admin });
    expect(after.body.data.usage[0].movies).toBe(1);
  });

  test('keys are checked; a user may not ask', async () => {
    for (const q of ['', '?keys=', '?keys=a', '?keys=1,,2', '?keys=123456']) {
      const r = await api.call('GET', `/app/admin/setting/platform-usage${q}`, { token: admin });
      expect(r.body.code, q).toBe(40000);
    }
    expect(
      (await api.call('GET', '/app/admin/setting/platform-usage?keys=1', { token: user })).body.code,
    ).toBe(40300);
  });
});

describe('statistics settings', () => {
  const URL = '/app/admin/setting/statistics';

  test('defaults until saved: every event, 100 %, 30 days, a 30-day attribution window, no snippets, version 0', async () => {
    await api.query(sql`delete from statistics_settings`);
    const r = await api.call('GET', URL, { token: user });
    expect(r.body.data).toEqual({
      tenant: 2,
      version: 0,
      events: { pageView: true, play: true, search: true, adImpression: true, adClick: true, tagClick: true },
      sampleRate: 100,
      rawRetentionDays: 30,
      attributionDays: 30,
      snippets: [],
    });
  });

  test('saving merges, keeps a snippet byte for byte (it is text), and checks the version', async () => {
    await api.query(sql`delete from statistics_settings`);
    const code =
      '<script>\n  var _hmt = _hmt || [];\n  document.write("<img src=x onerror=alert(1)>");\n</script>';
    const r = await api.call('PUT', URL, {
      token: admin,
      body: {
        version: 0,
        events: { search: false },
        rawRetentionDays: 90,
        snippets: [{ platform: 2, code }],
      },
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      version: 1,
      events: { search: false, pageView: true },
      sampleRate: 100,
      rawRetentionDays: 90,
      snippets: [{ platform: 2, code }],
    });
    const next = await api.call('PUT', URL, { token: admin, body: { version: 1, sampleRate: 10 } });
    expect(next.body.data).toMatchObject({
      version: 2,
      sampleRate: 10,
      rawRetentionDays: 90,
      events: { search: false },
    });
    expect(next.body.data.snippets[0].code).toBe(code);
    const stale = await api.call('PUT', URL, { token: admin, body: { version: 1, sampleRate: 20 } });
    expect(stale.body.code).toBe(40900);
    expect((await api.call('GET', URL, { token: admin })).body.data.sampleRate).toBe(10);
  });

  test('bad input is 40000 naming the field; a user may not save', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sampleRate: 0 }, 'sampleRate'],
      [{ sampleRate: 101 }, 'sampleRate'],
      [{ sampleRate: 12.5 }, 'sampleRate'],
      [{ rawRetentionDays: 0 }, 'rawRetentionDays'],
      [{ events: { pageView: 'yes' } }, 'events.pageView'],
      [{ events: { scroll: true } }, 'events'],
      [{ snippets: [{ platform: 99, code: 'x' }] }, 'snippets.0.platform'],
      [
        {
          snippets: [
            { platform: 2, code: 'a' },
            { platform: 2, code: 'b' },
          ],
        },
        'snippets',
      ],
      [{ snippets: [{ platform: 2, code: 'x'.repeat(20_001) }] }, 'snippets.0.code'],
      [{ colour: 'red' }, ''],
    ];
    const v = (await api.call('GET', URL, { token: admin })).body.data.version;
    for (const [body, field] of cases) {
      const r = await api.call('PUT', URL, { token: admin, body: { version: v, ...body } });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      if (field) expect(Object.keys(r.body.data.fields), JSON.stringify(body)).toContain(field);
    }
    expect((await api.call('PUT', URL, { token: user, body: { version: v, sampleRate: 5 } })).body.code).toBe(
      40300,
    );
    expect((await api.call('GET', URL, { token: admin })).body.data.version).toBe(v);
  });
});
