import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Live, pickDomain } from '../../server/modules/domain/resolve';
import { rng } from '../../server/seed/random';
import { startApi, type TestApi } from './harness';

/** Issue #15: the site's resolve endpoint — weights, stickiness, cache, never a dead domain. */
let api: TestApi;
let admin: string;
let key: string;
let poolId: number;

const D = '/app/admin/domain';
const admin$ = (method: string, path: string, body?: unknown) =>
  api.call(method, `${D}${path}`, { token: admin, body }).then((r) => r.body);
const resolve = (query: string, siteKey = key) =>
  api
    .call('GET', `/app/site/domains/resolve?${query}`, { headers: siteKey ? { 'Site-Key': siteKey } : {} })
    .then((r) => r.body);
const ids = async (q: string) => (await admin$('GET', `/domains?${q}&pageSize=100&sort=hostname`)).data.list;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data.key;
  poolId = (await admin$('POST', '/pools', { name: 'promo' })).data.id;
  for (const [host, weight, status] of [
    ['w1.promo.com', 1, 'active'],
    ['w2.promo.com', 2, 'active'],
    ['w7.promo.com', 7, 'active'],
    ['spare.promo.com', 9, 'standby'],
    ['dead.promo.com', 9, 'blocked'],
    ['old.promo.com', 9, 'retired'],
    ['gone.promo.com', 9, 'expired'],
  ] as const)
    await admin$('POST', '/domains', { hostname: host, weight, status, poolId });
});
afterAll(() => api.close());

describe('the weighted pick', () => {
  test('each live domain wins in proportion to its weight (chi-square, fixed seed)', () => {
    const live: Live[] = [
      { id: 1, hostname: 'a', weight: 1, salt: 11 },
      { id: 2, hostname: 'b', weight: 2, salt: 22 },
      { id: 3, hostname: 'c', weight: 7, salt: 33 },
    ];
    const r = rng(20261123);
    const n = 30_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const visitor = `v-${Math.floor(r.next() * 1e12).toString(36)}`;
      const d = pickDomain(live, visitor)!;
      counts.set(d.id, (counts.get(d.id) ?? 0) + 1);
    }
    const expected = [0.1, 0.2, 0.7].map((p) => p * n);
    const chi2 = [1, 2, 3].reduce(
      (s, id, i) => s + ((counts.get(id) ?? 0) - expected[i]) ** 2 / expected[i],
      0,
    );
    // 2 degrees of freedom: 13.8 is the 0.1 % critical value
    expect(chi2).toBeLessThan(13.8);
    expect((counts.get(3) ?? 0) / n).toBeGreaterThan(0.68);
  });

  test('weight 0 and an empty pool pick nothing; removing another domain never moves a visitor', () => {
    expect(pickDomain([], 'x')).toBeUndefined();
    expect(pickDomain([{ id: 1, hostname: 'a', weight: 0, salt: 1 }], 'x')).toBeUndefined();
    const live: Live[] = Array.from({ length: 10 }, (_, i) => ({
      id: i,
      hostname: `d${i}`,
      weight: 1 + i,
      salt: i * 7919,
    }));
    for (let v = 0; v < 500; v++) {
      const first = pickDomain(live, `u${v}`)!;
      const without = live.filter((d) => d.id !== (first.id + 1) % 10);
      expect(pickDomain(without, `u${v}`)!.id).toBe(first.id);
    }
  });
});

describe('GET /app/site/domains/resolve', () => {
  test('answers only active domains, the same one per visitor, by pool id or name', async () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const r = await resolve(`pool=${poolId}&visitor=visitor-${i}`);
      expect(r.code).toBe(20000);
      seen.set(r.data.hostname, (seen.get(r.data.hostname) ?? 0) + 1);
      const again = await resolve(`pool=promo&visitor=visitor-${i}`);
      expect(again.data.hostname).toBe(r.data.hostname);
    }
    expect([...seen.keys()].sort()).toEqual(['w1.promo.com', 'w2.promo.com', 'w7.promo.com']);
    expect(seen.get('w7.promo.com')!).toBeGreaterThan(seen.get('w1.promo.com')!);
  });

  test('blocking a domain moves only its visitors, at once (the version is bumped)', async () => {
    const before = new Map<string, string>();
    for (let i = 0; i < 200; i++)
      before.set(`s${i}`, (await resolve(`pool=promo&visitor=s${i}`)).data.hostname);
    const w2 = (await ids('q=w2.promo')).find((d: any) => d.hostname === 'w2.promo.com');
    await admin$('POST', '/domains/batch', { action: 'status', ids: [w2.id], status: 'blocked' });
    for (const [visitor, host] of before) {
      const now = (await resolve(`pool=promo&visitor=${visitor}`)).data.hostname;
      if (host === 'w2.promo.com') expect(now).not.toBe('w2.promo.com');
      else expect(now).toBe(host);
    }
    await admin$('POST', '/domains/batch', { action: 'status', ids: [w2.id], status: 'active' });
  });

  test('the cache follows the version in the database (another instance’s write), and only it', async () => {
    const visitor = 'cache-visitor';
    const host = (await resolve(`pool=promo&visitor=${visitor}`)).data.hostname;
    // A write that does not bump the version is not seen: the answer comes from the cache
    await api.query(sql`update domains set status = 'retired' where hostname = ${host}`);
    expect((await resolve(`pool=promo&visitor=${visitor}`)).data.hostname).toBe(host);
    // Another instance's write bumps the version in the same transaction: seen at once
    await api.query(sql`update domain_settings set resolve_version = resolve_version + 1`);
    expect((await resolve(`pool=promo&visitor=${visitor}`)).data.hostname).not.toBe(host);
    await api.query(sql`update domains set status = 'active' where hostname = ${host}`);
    await api.query(sql`update domain_settings set resolve_version = resolve_version + 1`);
  });

  test('channel: only the pool’s domains bound to it', async () => {
    const w1 = (await ids('q=w1.promo')).find((d: any) => d.hostname === 'w1.promo.com');
    await admin$('PUT', `/domains/${w1.id}`, { version: w1.version, channel: 'ag42' });
    for (let i = 0; i < 20; i++)
      expect((await resolve(`pool=promo&visitor=c${i}&channel=ag42`)).data.hostname).toBe('w1.promo.com');
    expect((await resolve('pool=promo&visitor=c1&channel=nobody')).code).toBe(40400);
  });

  test('never an active domain whose registration has run out, from the day after its expiry', async () => {
    const pool = (await admin$('POST', '/pools', { name: 'lapse' })).data.id;
    // the test clock is 2026-06-01 08:00 UTC
    await admin$('POST', '/domains', {
      hostname: 'today.lapse.com',
      status: 'active',
      poolId: pool,
      expiresOn: '2026-06-01',
    });
    await admin$('POST', '/domains', {
      hostname: 'past.lapse.com',
      status: 'active',
      poolId: pool,
      expiresOn: '2026-05-31',
      weight: 50,
    });
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add((await resolve(`pool=${pool}&visitor=l${i}`)).data.hostname);
    expect([...seen]).toEqual(['today.lapse.com']);
    // The next day the cached list is read again (no write bumped the version): nothing is live any more
    api.clock.set(new Date('2026-06-02T00:30:00Z'));
    try {
      expect((await resolve(`pool=${pool}&visitor=l1`)).code).toBe(40400);
    } finally {
      api.clock.set(new Date('2026-06-01T08:00:00Z'));
    }
  });

  test('bad input: the key, the pool, the visitor, unknown parameters', async () => {
    expect((await resolve('pool=promo&visitor=a', '')).code).toBe(40100);
    expect((await resolve('pool=promo&visitor=a', 'sk_wrongwrongwrongwrongwrong')).code).toBe(40100);
    expect((await resolve('visitor=a')).data.fields.pool).toBeDefined();
    expect((await resolve('pool=promo')).data.fields.visitor).toBeDefined();
    expect((await resolve(`pool=promo&visitor=${'v'.repeat(129)}`)).code).toBe(40000);
    expect((await resolve('pool=promo&visitor=a&channel=a%20b')).code).toBe(40000);
    expect((await resolve('pool=promo&visitor=a&colour=red')).code).toBe(40000);
    expect((await resolve('pool=nosuch&visitor=a')).code).toBe(40400);
    const empty = (await admin$('POST', '/pools', { name: 'empty' })).data.id;
    expect((await resolve(`pool=${empty}&visitor=a`)).code).toBe(40400);
  });
});
