import { and, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adState, isLandingUrl, patternProblem } from '../../common/ad';
import { rowsOf } from '../../server/db/migrate';
import { adWhere } from '../../server/modules/ad/routes';
import { ADS, ADVERTISERS, adFixture, createAd, material, POSITIONS } from './ad-helpers';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #13: advertisers, positions and materials — validation, derived states, filters, batches, roles. */
let api: TestApi;
let admin: string;
let user: string;
let fx: { positionId: number; advertiserId: number };

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
  fx = await adFixture(api, admin, 'home');
});
afterAll(() => api.close());

const en = { 'Accept-Language': 'en-US' };
const list = async (q = '') => (await api.call('GET', `${ADS}?pageSize=100${q}`, { token: admin })).body.data;

describe('derived state at the boundaries', () => {
  const ad = { enabled: true, startAt: '2026-06-01T00:00:00Z', endAt: '2026-06-02T00:00:00Z' };
  test('start instant is live, end instant is expired, paused wins, no end is live for ever', () => {
    expect(adState(ad, new Date('2026-05-31T23:59:59.999Z'))).toBe('scheduled');
    expect(adState(ad, new Date('2026-06-01T00:00:00Z'))).toBe('live');
    expect(adState(ad, new Date('2026-06-01T23:59:59.999Z'))).toBe('live');
    expect(adState(ad, new Date('2026-06-02T00:00:00Z'))).toBe('expired');
    expect(adState({ ...ad, enabled: false }, new Date('2026-06-01T12:00:00Z'))).toBe('paused');
    expect(adState({ ...ad, endAt: null }, new Date('2099-01-01T00:00:00Z'))).toBe('live');
  });

  test('the list filter agrees with the rule at the server clock, boundaries included', async () => {
    await api.query(sql`delete from ads`);
    const now = api.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const mk = (title: string, startAt: string, endAt: string | null, enabled = true) =>
      createAd(api, admin, material(fx, { title, startAt, endAt, enabled }));
    await mk('starts-now', at(0), at(3_600_000));
    await mk('starts-later', at(1000), at(3_600_000));
    await mk('ends-now', at(-3_600_000), at(0));
    await mk('ends-later', at(-3_600_000), at(1000));
    await mk('paused', at(-3_600_000), null, false);
    const names = async (state: string) =>
      (await list(`&state=${state}&sort=title`)).list.map((a: any) => a.title);
    expect(await names('live')).toEqual(['ends-later', 'starts-now']);
    expect(await names('scheduled')).toEqual(['starts-later']);
    expect(await names('expired')).toEqual(['ends-now']);
    expect(await names('paused')).toEqual(['paused']);
    const all = (await list()).list as any[];
    expect(Object.fromEntries(all.map((a) => [a.title, a.state]))).toEqual({
      'starts-now': 'live',
      'starts-later': 'scheduled',
      'ends-now': 'expired',
      'ends-later': 'live',
      paused: 'paused',
    });
    // expiring within 1 day: live or scheduled ones that end in (now, now + 1 day]
    expect((await list('&expiringDays=1&sort=title')).list.map((a: any) => a.title)).toEqual([
      'ends-later',
      'starts-later',
      'starts-now',
    ]);
  });
});

describe('validation', () => {
  test('landing URL http(s) only, and the rest of the body, is 40000 naming the field', async () => {
    expect(isLandingUrl('https://a.example/x?y=1')).toBe(true);
    expect(isLandingUrl('javascript:alert(1)')).toBe(false);
    const cases: [Record<string, unknown>, string][] = [
      [material(fx, { landingUrl: 'javascript:alert(1)' }), 'landingUrl'],
      [material(fx, { landingUrl: 'ftp://x.example/a' }), 'landingUrl'],
      [material(fx, { landingUrl: 'shop.example.com' }), 'landingUrl'],
      [material(fx, { landingUrl: 'https://exa mple.com' }), 'landingUrl'],
      [material(fx, { landingUrl: `https://x.example/${'a'.repeat(1100)}` }), 'landingUrl'],
      [material(fx, { creative: 'data:image/png;base64,AA' }), 'creative'],
      [material(fx, { creative: '' }), 'creative'],
      [
        material(fx, { type: 'video', creative: '/upload/2026/06/0123456789abcdef0123456789abcdef.png' }),
        'creative',
      ],
      [material(fx, { type: 'text', creative: '', body: '' }), 'body'],
      [material(fx, { type: 'banner' }), 'type'],
      [material(fx, { pricing: 'cpx' }), 'pricing'],
      [material(fx, { price: -1 }), 'price'],
      [material(fx, { price: 1.234 }), 'price'],
      [material(fx, { weight: 0 }), 'weight'],
      [material(fx, { startAt: '2026-06-01' }), 'startAt'],
      [material(fx, { endAt: '2026-04-01T00:00:00Z' }), 'endAt'],
      [material(fx, { positionId: 999999 }), 'positionId'],
      [material(fx, { advertiserId: 999999 }), 'advertiserId'],
      [material(fx, { platforms: [42] }), 'platforms.0'],
      [material(fx, { title: '' }), 'title'],
    ];
    for (const [body, field] of cases) {
      const r = await api.call('POST', ADS, { token: admin, body, headers: en });
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(body)).toContain(field);
    }
    const zh = await api.call('POST', ADS, { token: admin, body: material(fx, { landingUrl: 'ftp://x' }) });
    expect(zh.body.msg).toContain('http:// 或 https://');
    for (const q of ['state=gone', 'expiringDays=0', 'sort=landingUrl', 'foo=1', 'type=banner'])
      expect((await api.call('GET', `${ADS}?${q}`, { token: admin })).body.code, q).toBe(40000);
  });

  test('position key and fallback rules; a position or advertiser with materials is not deleted', async () => {
    const bad = await api.call('POST', POSITIONS, {
      token: admin,
      body: { name: 'x', key: 'Has Space', type: 'image' },
    });
    expect(bad.body.data.fields).toHaveProperty('key');
    const dup = await api.call('POST', POSITIONS, {
      token: admin,
      body: { name: 'x', key: 'home', type: 'image' },
    });
    expect(dup.body.code).toBe(40900);
    const other = await adFixture(api, admin, 'other');
    const foreign = await createAd(api, admin, material(other));
    const pos = (await api.call('GET', `${POSITIONS}/${fx.positionId}`, { token: admin })).body.data;
    const r = await api.call('PUT', `${POSITIONS}/${fx.positionId}`, {
      token: admin,
      body: { fallbackAdId: foreign.id, version: pos.version },
    });
    expect(r.body.data.fields).toHaveProperty('fallbackAdId');
    const own = await createAd(api, admin, material(fx, { title: 'house', price: 0 }));
    const set = await api.call('PUT', `${POSITIONS}/${fx.positionId}`, {
      token: admin,
      body: { fallbackAdId: own.id, version: pos.version },
    });
    expect(set.body.data.fallbackAdId).toBe(own.id);
    const move = await api.call('PUT', `${ADS}/${own.id}`, {
      token: admin,
      body: { positionId: other.positionId, version: own.version },
    });
    expect(move.body.data.fields).toHaveProperty('positionId');
    const del = await api.call('DELETE', `${POSITIONS}/${other.positionId}`, { token: admin });
    expect(del.body.code).toBe(40900);
    expect(
      (await api.call('DELETE', `${ADVERTISERS}/${other.advertiserId}`, { token: admin })).body.code,
    ).toBe(40900);
    // deleting the fallback material clears the position's fallback
    expect((await api.call('DELETE', `${ADS}/${own.id}`, { token: admin })).body.code).toBe(20000);
    expect(
      (await api.call('GET', `${POSITIONS}/${fx.positionId}`, { token: admin })).body.data.fallbackAdId,
    ).toBe(null);
  });
});

describe('edits, filters and batches', () => {
  test('optimistic locking: a stale version is 40900 and nothing is written', async () => {
    const a = await createAd(api, admin, material(fx, { title: 'lock' }));
    const ok = await api.call('PUT', `${ADS}/${a.id}`, {
      token: admin,
      body: { title: 'lock 2', version: a.version },
    });
    expect(ok.body.data.version).toBe(a.version + 1);
    const stale = await api.call('PUT', `${ADS}/${a.id}`, {
      token: admin,
      body: { title: 'lock 3', version: a.version },
    });
    expect(stale.body.code).toBe(40900);
    expect((await api.call('GET', `${ADS}/${a.id}`, { token: admin })).body.data.title).toBe('lock 2');
  });

  test('filters: position, advertiser, type, platform, landing URL contains', async () => {
    await api.query(sql`delete from ads`);
    const other = await adFixture(api, admin);
    await createAd(
      api,
      admin,
      material(fx, { title: 'a', landingUrl: 'https://alpha.example/x', platforms: [2] }),
    );
    await createAd(
      api,
      admin,
      material(other, {
        title: 'b',
        type: 'text',
        creative: '',
        body: '字',
        landingUrl: 'https://beta.example/x',
      }),
    );
    const titles = async (q: string) => (await list(`${q}&sort=title`)).list.map((a: any) => a.title);
    expect(await titles(`&positionId=${other.positionId}`)).toEqual(['b']);
    expect(await titles(`&advertiserId=${fx.advertiserId}`)).toEqual(['a']);
    expect(await titles('&type=text')).toEqual(['b']);
    expect(await titles('&platform=2')).toEqual(['a']);
    expect(await titles('&url=BETA')).toEqual(['b']);
    expect(await titles('&url=%25')).toEqual([]);
    expect(await titles('&url=a')).toEqual(['a', 'b']); // one character
    expect(await titles(`&url=${encodeURIComponent('ta.ex')}`)).toEqual(['b']);
    expect(await titles('&q=B')).toEqual(['b']);
  });

  test('title and landing URL searches are served by the bigram indexes (migration 0080)', async () => {
    const plan = await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const where = and(...adWhere({ url: 'shop42', q: '素材' }, new Date()));
      const r = await tx.execute(sql`explain select id from ads where ${where}`);
      return rowsOf<Record<string, string>>(r)
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    expect(plan).toMatch(/ads_landing_grams|ads_title_grams/);
    expect(plan).not.toMatch(/Seq Scan/);
  });

  test("a walk in the list's order tests LIKE before it computes a material's grams (two characters too)", async () => {
    const filter = await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const where = and(...adWhere({ url: '42' }, new Date()));
      const r = await tx.execute(sql`explain select id from ads where ${where} order by id desc limit 20`);
      return rowsOf<Record<string, string>>(r)
        .map((row) => Object.values(row)[0])
        .find((line) => line.includes('Filter:'));
    });
    // The cheaper condition first: a URL's grams cost 60 µs to compute, LIKE a fraction of one.
    expect(filter).toMatch(/~~ '%42%'.*zg_title_grams/);
  });

  test('batch enable / pause / delete is all or nothing', async () => {
    const a = await createAd(api, admin, material(fx, { title: 'batch a' }));
    const b = await createAd(api, admin, material(fx, { title: 'batch b' }));
    const paused = await api.call('POST', `${ADS}/batch`, {
      token: admin,
      body: { action: 'pause', ids: [a.id, b.id] },
    });
    expect(paused.body.data.changed).toBe(2);
    expect((await api.call('GET', `${ADS}/${a.id}`, { token: admin })).body.data.state).toBe('paused');
    const missing = await api.call('POST', `${ADS}/batch`, {
      token: admin,
      body: { action: 'enable', ids: [a.id, 999999] },
    });
    expect(missing.body.code).toBe(40400);
    expect((await api.call('GET', `${ADS}/${a.id}`, { token: admin })).body.data.enabled).toBe(false);
    const del = await api.call('POST', `${ADS}/batch`, {
      token: admin,
      body: { action: 'delete', ids: [a.id, b.id] },
    });
    expect(del.body.data.changed).toBe(2);
    expect((await api.call('GET', `${ADS}/${a.id}`, { token: admin })).body.code).toBe(40400);
  });

  test('platform usage counts materials', async () => {
    await createAd(api, admin, material(fx, { title: 'p', platforms: [4] }));
    const r = await api.call('GET', '/app/admin/setting/platform-usage?keys=4', { token: admin });
    expect(JSON.stringify(r.body.data)).toContain('ads');
  });
});

describe('roles', () => {
  test('operators read, only admins write', async () => {
    expect((await api.call('GET', ADS, { token: user })).body.code).toBe(20000);
    expect((await api.call('GET', POSITIONS, { token: user })).body.code).toBe(20000);
    expect((await api.call('GET', ADVERTISERS, { token: user })).body.code).toBe(20000);
    expect((await api.call('POST', ADS, { token: user, body: material(fx) })).body.code).toBe(40300);
    expect(
      (await api.call('POST', POSITIONS, { token: user, body: { name: 'x', key: 'x', type: 'image' } })).body
        .code,
    ).toBe(40300);
    expect((await api.call('POST', ADVERTISERS, { token: user, body: { name: 'x' } })).body.code).toBe(40300);
    expect(
      (await api.call('POST', `${ADS}/batch`, { token: user, body: { action: 'pause', ids: [1] } })).body
        .code,
    ).toBe(40300);
    expect((await api.call('GET', ADS)).body.code).toBe(50008);
  });
});

test('patterns: what RE2 cannot run in linear time and bad syntax are refused', () => {
  // Nested repetition runs in linear time under RE2 (the catastrophic shapes of a backtracking engine): taken.
  expect(patternProblem('(a+)+$')).toBe(null);
  expect(patternProblem('(a|aa)*b')).toBe(null);
  expect(patternProblem('(\\w)\\1')).toBe('unsupported');
  expect(patternProblem('foo(?=bar)')).toBe('unsupported');
  expect(patternProblem('([a-z]+')).toBe('syntax');
  expect(patternProblem('x'.repeat(201))).toBe('tooLong');
  expect(patternProblem('^https?://old\\.example\\.com/(\\w+)')).toBe(null);
});
