import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #5: notices — validation, sanitizing, derived state across time boundaries, filters, batch, roles. */
let api: TestApi;
let admin: string;
let user: string;

const BASE = '/app/admin/setting/notices';
const T0 = new Date('2026-06-01T08:00:00Z'); // the harness clock's start
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000).toISOString();

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
});
afterAll(() => api.close());

const create = (body: Record<string, unknown>, token = admin, headers?: Record<string, string>) =>
  api.call('POST', BASE, { token, body, headers });
const popup = (over: Record<string, unknown> = {}) => ({
  type: 'popup',
  title: '公告',
  content: '<p>欢迎</p>',
  platforms: [2],
  startAt: at(0),
  ...over,
});
const marquee = (over: Record<string, unknown> = {}) => ({
  type: 'marquee',
  title: '跑马灯',
  content: '今晚维护',
  platforms: [2, 4],
  startAt: at(0),
  ...over,
});

describe('create and validate', () => {
  test('a marquee with defaults: enabled, sort 0, no end, live from its start', async () => {
    const r = await create(marquee({ content: '  今晚\n  维护  ' }));
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      type: 'marquee',
      title: '跑马灯',
      content: '今晚 维护', // one line of plain text
      platforms: [2, 4],
      startAt: at(0),
      endAt: null,
      enabled: true,
      sort: 0,
      state: 'live',
      version: 1,
    });
  });

  test('bad input is 40000 naming the field, in the request language; nothing is stored', async () => {
    const [{ n: before }] = await api.query<{ n: number }>(sql`select count(*)::int as n from notices`);
    const cases: [Record<string, unknown>, string][] = [
      [popup({ type: 'banner' }), 'type'],
      [popup({ title: '   ' }), 'title'],
      [popup({ title: 'x'.repeat(101) }), 'title'],
      [popup({ platforms: [] }), 'platforms'],
      [popup({ platforms: [2, 2] }), 'platforms'],
      [popup({ platforms: [99] }), 'platforms.0'],
      [popup({ platforms: [2, 'x'] }), 'platforms.1'],
      [popup({ startAt: '2026-06-01' }), 'startAt'],
      [popup({ startAt: '2026-06-01T08:00:00' }), 'startAt'], // no offset: which time zone?
      [popup({ startAt: '2026-13-01T08:00:00Z' }), 'startAt'],
      [popup({ startAt: '0001-01-01T00:00:00Z' }), 'startAt'],
      [popup({ endAt: at(0) }), 'endAt'], // not after the start
      [popup({ endAt: at(-5) }), 'endAt'],
      [popup({ content: '' }), 'content'],
      [popup({ content: '<script>alert(1)</script>' }), 'content'], // nothing left after sanitizing
      [marquee({ content: '   ' }), 'content'],
      [marquee({ content: 'x'.repeat(501) }), 'content'],
      [popup({ sort: 1.5 }), 'sort'],
      [popup({ enabled: 'yes' }), 'enabled'],
    ];
    for (const [body, field] of cases) {
      const r = await create(body, admin, { 'Accept-Language': 'en-US' });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(body)).toContain(field);
    }
    const zh = await create(popup({ endAt: at(-1) }));
    expect(zh.body.msg).toContain('结束时间必须晚于开始时间');
    const en = await create(popup({ endAt: at(-1) }), admin, { 'Accept-Language': 'en-US' });
    expect(en.body.msg).toContain('The end must be after the start');
    const [{ n: after }] = await api.query<{ n: number }>(sql`select count(*)::int as n from notices`);
    expect(after).toBe(before);
  });

  test("a pop-up's rich text is sanitized on the way in: whitelisted tags, http(s) links only", async () => {
    const r = await create(
      popup({
        content:
          '<p onclick="steal()">Hi <b>there</b> <a href="https://example.com/x?a=1&amp;b=2" style="x">link</a>' +
          ' <a href="javascript:alert(1)">bad</a></p><script>alert(1)</script><img src=x onerror=alert(1)>' +
          '<ul><li>one<li>two</ul><iframe src="https://evil"></iframe>',
      }),
    );
    expect(r.body.code).toBe(20000);
    expect(r.body.data.content).toBe(
      '<p>Hi <strong>there</strong> <a href="https://example.com/x?a=1&amp;b=2" rel="noopener noreferrer nofollow" target="_blank">link</a> bad</p><ul><li>one</li><li>two</li></ul>',
    );
    const [row] = await api.query<{ content: string }>(
      sql`select content from notices where id = ${r.body.data.id}`,
    );
    expect(row.content).toBe(r.body.data.content); // stored sanitized, not only answered so
  });

  test('a marquee keeps its text as written (it is plain text: the site escapes it)', async () => {
    const r = await create(marquee({ content: 'a <b>b</b> & c' }));
    expect(r.body.data.content).toBe('a <b>b</b> & c');
  });
});

describe('derived state', () => {
  test('scheduled → live at the start (inclusive) → expired at the end (exclusive); disabled whatever the time', async () => {
    api.clock.set(T0);
    const n = (await create(popup({ title: 'window', startAt: at(10), endAt: at(20), platforms: [5] }))).body
      .data;
    const off = (
      await create(popup({ title: 'off', startAt: at(10), endAt: at(20), platforms: [5], enabled: false }))
    ).body.data;
    const stateAt = async (ms: number) => {
      api.clock.set(new Date(ms));
      const one = await api.call('GET', `${BASE}/${n.id}`, { token: admin });
      const other = await api.call('GET', `${BASE}/${off.id}`, { token: admin });
      expect(other.body.data.state).toBe('disabled');
      return one.body.data.state;
    };
    const start = Date.parse(at(10));
    const end = Date.parse(at(20));
    expect(await stateAt(start - 1)).toBe('scheduled');
    expect(await stateAt(start)).toBe('live');
    expect(await stateAt(end - 1)).toBe('live');
    expect(await stateAt(end)).toBe('expired');
    expect(await stateAt(end + 86_400_000)).toBe('expired');
    api.clock.set(T0);
  });

  test('the state filter uses the same rule at the boundaries', async () => {
    api.clock.set(T0);
    const made = (await create(popup({ title: 'filter', startAt: at(30), endAt: at(40), platforms: [6] })))
      .body.data;
    const idsIn = async (state: string, ms: number) => {
      api.clock.set(new Date(ms));
      const r = await api.call('GET', `${BASE}?state=${state}&platform=6&pageSize=100`, { token: admin });
      expect(r.body.code).toBe(20000);
      return r.body.data.list.map((x: { id: number }) => x.id);
    };
    const start = Date.parse(at(30));
    const end = Date.parse(at(40));
    expect(await idsIn('scheduled', start - 1)).toContain(made.id);
    expect(await idsIn('live', start - 1)).not.toContain(made.id);
    expect(await idsIn('live', start)).toContain(made.id);
    expect(await idsIn('scheduled', start)).not.toContain(made.id);
    expect(await idsIn('live', end - 1)).toContain(made.id);
    expect(await idsIn('expired', end - 1)).not.toContain(made.id);
    expect(await idsIn('expired', end)).toContain(made.id);
    expect(await idsIn('live', end)).not.toContain(made.id);
    api.clock.set(T0);
  });
});

describe('list, update, delete, batch', () => {
  test('filters by type and platform and title; sorts; unknown filters are refused', async () => {
    const tag = `t${Date.now().toString(36)}`;
    await create(marquee({ title: `${tag} a`, platforms: [1], sort: 2 }));
    await create(popup({ title: `${tag} b`, platforms: [1, 2], sort: 1 }));
    const list = async (q: string) =>
      (await api.call('GET', `${BASE}?q=${tag}&${q}`, { token: admin })).body.data;
    expect((await list('type=marquee')).list.map((x: any) => x.title)).toEqual([`${tag} a`]);
    expect((await list('platform=1&sort=sort&order=asc')).list.map((x: any) => x.title)).toEqual([
      `${tag} b`,
      `${tag} a`,
    ]);
    expect((await list('platform=1&sort=sort&order=desc')).list.map((x: any) => x.title)).toEqual([
      `${tag} a`,
      `${tag} b`,
    ]);
    expect((await list('platform=2')).total).toBe(1);
    for (const q of ['state=later', 'type=x', 'platform=abc', 'sort=content', 'color=red', 'pageSize=7']) {
      const r = await api.call('GET', `${BASE}?${q}`, { token: admin });
      expect(r.body.code, q).toBe(40000);
    }
  });

  test('update merges over the stored notice and checks the whole; a stale version is 40900', async () => {
    const n = (await create(popup({ startAt: at(0), endAt: at(60) }))).body.data;
    // Moving only the start past the stored end is caught.
    const bad = await api.call('PUT', `${BASE}/${n.id}`, {
      token: admin,
      body: { startAt: at(61), version: 1 },
    });
    expect(bad.body.code).toBe(40000);
    expect(bad.body.data.fields).toHaveProperty('endAt');
    // Changing the type to marquee turns its content into plain text.
    const ok = await api.call('PUT', `${BASE}/${n.id}`, {
      token: admin,
      body: { type: 'marquee', content: '<p>now text</p>', version: 1 },
    });
    expect(ok.body.code).toBe(20000);
    expect(ok.body.data).toMatchObject({ type: 'marquee', content: '<p>now text</p>', version: 2 });
    const stale = await api.call('PUT', `${BASE}/${n.id}`, {
      token: admin,
      body: { title: 'x', version: 1 },
    });
    expect(stale.body.code).toBe(40900);
    expect((await api.call('GET', `${BASE}/${n.id}`, { token: admin })).body.data.title).toBe('公告');
    expect(
      (await api.call('PUT', `${BASE}/999999`, { token: admin, body: { title: 'x', version: 1 } })).body.code,
    ).toBe(40400);
  });

  test('a platform removed from the settings stays on a notice that had it, but cannot be added', async () => {
    await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: {
        platforms: [
          { key: 2, name: '樱桃' },
          { key: 9, name: '临时' },
          { key: 4, name: '樱花' },
        ],
      },
    });
    const n = (await create(popup({ platforms: [9] }))).body.data;
    const other = (await create(popup({ platforms: [2] }))).body.data;
    await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: {
        platforms: [
          { key: 2, name: '樱桃' },
          { key: 1, name: '1号站' },
          { key: 4, name: '樱花' },
          { key: 5, name: '桃花' },
          { key: 6, name: '梅花' },
        ],
      },
    });
    const kept = await api.call('PUT', `${BASE}/${n.id}`, {
      token: admin,
      body: { title: 'still 9', platforms: [9, 2], version: 1 },
    });
    expect(kept.body.code).toBe(20000);
    const added = await api.call('PUT', `${BASE}/${other.id}`, {
      token: admin,
      body: { platforms: [2, 9], version: 1 },
    });
    expect(added.body.code).toBe(40000);
    expect(added.body.data.fields).toHaveProperty('platforms.1');
  });

  test('batch enable/disable changes only what differs and says how many; unknown ids change nothing', async () => {
    const a = (await create(popup({ title: 'batch a' }))).body.data;
    const b = (await create(popup({ title: 'batch b', enabled: false }))).body.data;
    const r = await api.call('POST', `${BASE}/batch`, {
      token: admin,
      body: { action: 'disable', ids: [a.id, b.id] },
    });
    expect(r.body).toMatchObject({ code: 20000, data: { changed: 1 } });
    const got = async (id: number) => (await api.call('GET', `${BASE}/${id}`, { token: admin })).body.data;
    expect(await got(a.id)).toMatchObject({ enabled: false, state: 'disabled', version: 2 });
    expect((await got(b.id)).version).toBe(1);
    const missing = await api.call('POST', `${BASE}/batch`, {
      token: admin,
      body: { action: 'enable', ids: [a.id, 987654] },
    });
    expect(missing.body.code).toBe(40400);
    expect(missing.body.msg).toContain('987654');
    expect((await got(a.id)).enabled).toBe(false); // all or nothing
    const del = await api.call('POST', `${BASE}/batch`, {
      token: admin,
      body: { action: 'delete', ids: [a.id, b.id] },
    });
    expect(del.body.data.changed).toBe(2);
    expect((await api.call('GET', `${BASE}/${a.id}`, { token: admin })).body.code).toBe(40400);
  });

  test('delete answers the notice; a second delete is 40400', async () => {
    const n = (await create(popup())).body.data;
    expect((await api.call('DELETE', `${BASE}/${n.id}`, { token: admin })).body.data.id).toBe(n.id);
    expect((await api.call('DELETE', `${BASE}/${n.id}`, { token: admin })).body.code).toBe(40400);
  });
});

describe('roles', () => {
  test('a user reads notices but cannot write them', async () => {
    const n = (await create(popup())).body.data;
    expect((await api.call('GET', BASE, { token: user })).body.code).toBe(20000);
    expect((await api.call('GET', `${BASE}/${n.id}`, { token: user })).body.code).toBe(20000);
    expect((await create(popup(), user)).body.code).toBe(40300);
    expect(
      (await api.call('PUT', `${BASE}/${n.id}`, { token: user, body: { title: 'x', version: 1 } })).body.code,
    ).toBe(40300);
    expect((await api.call('DELETE', `${BASE}/${n.id}`, { token: user })).body.code).toBe(40300);
    expect(
      (await api.call('POST', `${BASE}/batch`, { token: user, body: { action: 'delete', ids: [n.id] } })).body
        .code,
    ).toBe(40300);
    expect((await api.call('GET', `${BASE}/${n.id}`, { token: admin })).body.data.title).toBe('公告');
  });
});
