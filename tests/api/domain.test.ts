import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runwayDays } from '../../common/domain';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #15: the domain store — validation and IDN, the import report, batches, the swap, runway, roles. */
let api: TestApi;
let admin: string;
let user: string;

const D = '/app/admin/domain';
const en = { 'Accept-Language': 'en-US' };

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
});
afterAll(() => api.close());

const call = (method: string, path: string, body?: unknown, token = admin) =>
  api.call(method, `${D}${path}`, { token, body, headers: en }).then((r) => r.body);
const pool = async (name: string) => (await call('POST', '/pools', { name })).data.id as number;
const importText = (text: string, over: Record<string, unknown> = {}) =>
  call('POST', '/domains/import', { text, ...over });
const byHost = async (hostname: string) =>
  (await call('GET', `/domains?q=${encodeURIComponent(hostname)}&pageSize=100`)).data.list.find(
    (d: any) => d.hostname === hostname,
  );

describe('hostnames', () => {
  test('IDN is stored in ASCII and shown in Unicode; the registrable domain comes from the suffix list', async () => {
    const r = await call('POST', '/domains', { hostname: 'WWW.例子.中国.' });
    expect(r.code).toBe(20000);
    expect(r.data).toMatchObject({
      hostname: 'www.xn--fsqu00a.xn--fiqs8s',
      unicode: 'www.例子.中国',
      registrable: 'xn--fsqu00a.xn--fiqs8s',
      status: 'standby',
    });
    const uk = await call('POST', '/domains', { hostname: 'shop.example.co.uk' });
    expect(uk.data.registrable).toBe('example.co.uk');
    // Searching in Unicode finds the ASCII row
    expect((await call('GET', `/domains?q=${encodeURIComponent('www.例子')}`)).data.total).toBe(1);
  });

  test('wildcards, IP literals, public suffixes and bad labels are 40000 naming the field, with a reason', async () => {
    const cases: [string, RegExp][] = [
      ['*.example.com', /Wildcard/],
      ['192.168.1.1', /IP address/],
      ['[::1]', /IP address/],
      ['co.uk', /public suffix/],
      ['localhost', /two labels/],
      ['bad_label.com', /label/],
      [`${'a'.repeat(64)}.com`, /label/],
      [`${'abcdefghi.'.repeat(26)}com`, /253/],
      ['foo bar.com', /valid/],
    ];
    for (const [hostname, message] of cases) {
      const r = await call('POST', '/domains', { hostname });
      expect(r.code, hostname).toBe(40000);
      expect(r.data.fields.hostname, hostname).toMatch(message);
    }
    const zh = await api.call('POST', `${D}/domains`, { token: admin, body: { hostname: '*.a.com' } });
    expect(zh.body.msg).toContain('通配符');
  });

  test('a duplicate hostname is 40900; a channel code with spaces, a weight out of range, an unknown pool are 40000', async () => {
    expect((await call('POST', '/domains', { hostname: 'dup-one.com' })).code).toBe(20000);
    expect((await call('POST', '/domains', { hostname: 'DUP-ONE.com' })).code).toBe(40900);
    const bad: [Record<string, unknown>, string][] = [
      [{ hostname: 'x1.com', channel: 'a b' }, 'channel'],
      [{ hostname: 'x1.com', weight: 1001 }, 'weight'],
      [{ hostname: 'x1.com', weight: -1 }, 'weight'],
      [{ hostname: 'x1.com', status: 'dead' }, 'status'],
      [{ hostname: 'x1.com', poolId: 999999 }, 'poolId'],
      [{ hostname: 'x1.com', expiresOn: '2026-02-30' }, 'expiresOn'],
    ];
    for (const [body, field] of bad) {
      const r = await call('POST', '/domains', body);
      expect(r.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.data.fields)).toContain(field);
    }
  });
});

describe('import', () => {
  test('the report names invalid lines, duplicates in the paste and hostnames already stored; nothing is saved', async () => {
    await call('POST', '/domains', { hostname: 'already.com' });
    const text = [
      'good1.com',
      'GOOD1.com',
      '',
      '# a comment',
      '*.wild.com',
      'already.com',
      '例子.cn',
      'xn--fsqu00a.cn',
    ].join('\n');
    const before = (await call('GET', '/domains')).data.total;
    const dry = await importText(text, { dryRun: true });
    expect(dry.code).toBe(20000);
    expect(dry.data).toMatchObject({ lines: 6, valid: 2, invalid: 1, duplicates: 2, exists: 1, saved: 0 });
    expect(dry.data.problems.map((p: any) => [p.line, p.error])).toEqual([
      [2, 'duplicate'],
      [5, 'wildcard'],
      [6, 'exists'],
      [8, 'duplicate'],
    ]);
    expect(dry.data.problems[0].message).toBe('Repeats line 1');
    // Committing with problems saves nothing and answers the report
    const refused = await importText(text);
    expect(refused.code).toBe(40000);
    expect(refused.data.problems).toHaveLength(4);
    expect((await call('GET', '/domains')).data.total).toBe(before);
    // skipBad: the two valid lines, in one go, each with a history row
    const p = await pool('导入池');
    const done = await importText(text, {
      skipBad: true,
      poolId: p,
      status: 'active',
      weight: 3,
      channel: 'ag7',
    });
    expect(done.data.saved).toBe(2);
    const list = (await call('GET', `/domains?poolId=${p}`)).data.list;
    expect(list.map((d: any) => d.unicode).sort()).toEqual(['good1.com', '例子.cn']);
    expect(list.every((d: any) => d.status === 'active' && d.weight === 3 && d.channel === 'ag7')).toBe(true);
    const history = (await call('GET', '/history?action=import&pageSize=100')).data.list;
    expect(history.filter((h: any) => h.poolId === p)).toHaveLength(2);
    expect(history[0].actor).toBe('admin');
  });

  test('thousands of lines in one statement; a bad body is 40000', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => `bulk${i}.example.net`).join('\n');
    const r = await importText(text);
    expect(r.data.saved).toBe(3000);
    expect((await call('GET', '/domains?q=bulk')).data.total).toBe(3000);
    expect((await importText('')).code).toBe(40000);
    expect((await importText('a.com', { status: 'retired' })).data.fields.status).toBeDefined();
    expect((await importText('a.com', { extra: 1 })).code).toBe(40000);
    expect((await importText('a.com', { poolId: 987654 })).data.fields.poolId).toBeDefined();
  });
});

describe('list, edit, batches', () => {
  test('filters on every field and sorts; unknown filters are refused', async () => {
    const p = await pool('筛选池');
    await importText('f1.filter.org\nf2.filter.org\nf3.filter.org', { poolId: p, role: 'main' });
    const ids = (await call('GET', `/domains?poolId=${p}&sort=hostname`)).data.list.map((d: any) => d.id);
    await call('PUT', `/domains/${ids[0]}`, {
      version: 1,
      status: 'active',
      expiresOn: '2026-06-10',
      certExpiresOn: '2026-06-05',
      registrar: 'Reg A',
      channel: 'chx',
    });
    const total = async (q: string) => (await call('GET', `/domains?poolId=${p}&${q}`)).data.total;
    expect(await total('status=active')).toBe(1);
    expect(await total('role=main')).toBe(3);
    expect(await total('channel=chx')).toBe(1);
    expect(await total('registrar=Reg%20A')).toBe(1);
    expect(await total('expiringWithin=30')).toBe(1);
    expect(await total('certExpiringWithin=7')).toBe(1);
    expect(await total('q=f2')).toBe(1);
    expect(await total('q=filter.org')).toBe(3);
    expect((await call('GET', '/domains?poolId=0')).data.list.every((d: any) => d.poolId === null)).toBe(
      true,
    );
    expect((await call('GET', '/domains?colour=red')).code).toBe(40000);
    expect((await call('GET', '/domains?sort=colour')).code).toBe(40000);
    expect((await call('GET', '/domains?status=dead')).code).toBe(40000);
  });

  test('an edit with a stale version is 40900; each changed field is a history row', async () => {
    const d = (await call('POST', '/domains', { hostname: 'edit-me.com' })).data;
    const saved = await call('PUT', `/domains/${d.id}`, {
      version: d.version,
      weight: 7,
      status: 'retired',
      retireReason: '被墙',
    });
    expect(saved.data).toMatchObject({ weight: 7, status: 'retired', retireReason: '被墙' });
    expect(saved.data.retiredAt).not.toBeNull();
    expect((await call('PUT', `/domains/${d.id}`, { version: d.version, weight: 8 })).code).toBe(40900);
    const h = (await call('GET', `/history?domainId=${d.id}`)).data.list;
    expect(h.map((x: any) => x.action).sort()).toEqual(['create', 'edit', 'edit', 'retire']);
    expect(h.find((x: any) => x.action === 'retire')).toMatchObject({
      from: 'standby',
      to: 'retired',
      reason: '被墙',
    });
  });

  test('batches are all or nothing: one unknown id changes nothing; move and retire write history', async () => {
    const p1 = await pool('批量一');
    const p2 = await pool('批量二');
    await importText('b1.batch.io\nb2.batch.io', { poolId: p1 });
    const ids = (await call('GET', `/domains?poolId=${p1}`)).data.list.map((d: any) => d.id);
    const missing = await call('POST', '/domains/batch', { action: 'retire', ids: [...ids, 99999999] });
    expect(missing.code).toBe(40400);
    expect((await call('GET', `/domains?poolId=${p1}&status=standby`)).data.total).toBe(2);
    expect((await call('POST', '/domains/batch', { action: 'move', ids, poolId: p2 })).data.changed).toBe(2);
    expect(
      (await call('POST', '/domains/batch', { action: 'status', ids, status: 'active' })).data.changed,
    ).toBe(2);
    expect(
      (await call('POST', '/domains/batch', { action: 'retire', ids, reason: '到期' })).data.changed,
    ).toBe(2);
    expect((await call('GET', `/domains?poolId=${p2}&status=retired`)).data.total).toBe(2);
    const h = (await call('GET', `/history?poolId=${p1}&action=move`)).data.list;
    expect(h).toHaveLength(2);
    expect((await call('POST', '/domains/batch', { action: 'status', ids })).code).toBe(40000);
    expect((await call('POST', '/domains/batch', { action: 'move', ids, poolId: 424242 })).code).toBe(40000);
    expect((await call('POST', '/domains/batch', { action: 'explode', ids })).code).toBe(40000);
    expect((await call('POST', '/domains/batch', { action: 'retire', ids: [] })).code).toBe(40000);
  });
});

describe('config: swap A for B across a channel', () => {
  test('previewed first (nothing changes), then one transaction with two history rows', async () => {
    const p = await pool('渠道换绑');
    await importText('chan-a.com', {
      poolId: p,
      status: 'active',
      role: 'channel',
      weight: 4,
      channel: 'ag900',
    });
    await importText('chan-b.com', { poolId: p });
    const a = await byHost('chan-a.com');
    const b = await byHost('chan-b.com');
    const preview = await call('POST', '/config/swap', {
      channel: 'ag900',
      fromId: a.id,
      toId: b.id,
      dryRun: true,
    });
    expect(preview.data.done).toBe(false);
    expect(preview.data.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: a.id, field: 'channel', from: 'ag900', to: '' }),
        expect.objectContaining({ id: a.id, field: 'status', from: 'active', to: 'retired' }),
        expect.objectContaining({ id: b.id, field: 'channel', from: '', to: 'ag900' }),
        expect.objectContaining({ id: b.id, field: 'status', from: 'standby', to: 'active' }),
        expect.objectContaining({ id: b.id, field: 'weight', from: '1', to: '4' }),
      ]),
    );
    expect((await byHost('chan-a.com')).channel).toBe('ag900');
    const done = await call('POST', '/config/swap', {
      channel: 'ag900',
      fromId: a.id,
      toId: b.id,
      reason: '被墙',
    });
    expect(done.data.done).toBe(true);
    expect(await byHost('chan-a.com')).toMatchObject({ channel: null, status: 'retired' });
    expect(await byHost('chan-b.com')).toMatchObject({
      channel: 'ag900',
      status: 'active',
      role: 'channel',
      weight: 4,
    });
    const h = (await call('GET', '/history?action=swap&channel=ag900')).data.list;
    expect(h).toHaveLength(2);
    expect(h[0]).toMatchObject({ from: 'chan-a.com', to: 'chan-b.com', reason: '被墙', actor: 'admin' });
    const channels = (await call('GET', '/config/channels?q=ag90')).data.list;
    expect(channels).toEqual([expect.objectContaining({ channel: 'ag900' })]);
    // A is no longer bound; B to itself; a retired target
    expect(
      (await call('POST', '/config/swap', { channel: 'ag900', fromId: a.id, toId: b.id })).data.fields.fromId,
    ).toBeDefined();
    expect(
      (await call('POST', '/config/swap', { channel: 'ag900', fromId: b.id, toId: b.id })).data.fields.toId,
    ).toBeDefined();
    expect(
      (await call('POST', '/config/swap', { channel: 'ag900', fromId: b.id, toId: a.id })).data.fields.toId,
    ).toMatch(/standby or active/);
    expect((await call('POST', '/config/swap', { channel: 'a b', fromId: b.id, toId: a.id })).code).toBe(
      40000,
    );
  });
});

describe('config: every channel reachable', () => {
  test('channels are paged by code with their total; bad paging and unknown parameters are 40000', async () => {
    const p = await pool('多渠道');
    // 25 channels zz00…zz24, one domain each
    for (let i = 0; i < 25; i++)
      await importText(`zz${i}.channels.dev`, {
        poolId: p,
        status: 'active',
        role: 'channel',
        channel: `zz${String(i).padStart(2, '0')}`,
      });
    const page1 = (await call('GET', '/config/channels?q=zz&pageSize=10')).data;
    expect(page1.total).toBe(25);
    expect(page1.list.map((r: any) => r.channel)).toEqual(
      Array.from({ length: 10 }, (_, i) => `zz${String(i).padStart(2, '0')}`),
    );
    const page3 = (await call('GET', '/config/channels?q=zz&pageSize=10&page=3')).data;
    expect(page3.list.map((r: any) => r.channel)).toEqual(['zz20', 'zz21', 'zz22', 'zz23', 'zz24']);
    expect(page3.total).toBe(25);
    // past the end: nothing, the total still said
    expect((await call('GET', '/config/channels?q=zz&pageSize=10&page=9')).data).toEqual({
      list: [],
      total: 25,
    });
    expect((await call('GET', '/config/channels?channel=zz07')).data.total).toBe(1);
    expect((await call('GET', '/config/channels?page=0')).data.fields.page).toBeDefined();
    expect((await call('GET', '/config/channels?pageSize=1000')).data.fields.pageSize).toBeDefined();
    expect((await call('GET', '/config/channels?colour=red')).data.fields.colour).toBeDefined();
  });
});

describe('pools and runway', () => {
  test('days left = standby ÷ retired per day over 30 days', async () => {
    expect(runwayDays(30, 15)).toBe(60);
    expect(runwayDays(10, 0)).toBeNull();
    expect(runwayDays(0, 30)).toBe(0);
    const p = await pool('跑道池');
    await importText(Array.from({ length: 12 }, (_, i) => `rw${i}.runway.dev`).join('\n'), { poolId: p });
    const ids = (await call('GET', `/domains?poolId=${p}&sort=hostname`)).data.list.map((d: any) => d.id);
    // 6 retired: 3 today, 3 forty days ago (outside the window)
    await call('POST', '/domains/batch', { action: 'retire', ids: ids.slice(0, 6) });
    await api.query(
      sql`update domains set retired_at = retired_at - interval '40 days' where id = any(${sql.param(ids.slice(0, 3))}::int[])`,
    );
    await api.query(sql`update domains set expires_on = '2026-06-15' where id = ${ids[6]}`);
    const r = (await call('GET', '/overview/runway')).data;
    const row = r.pools.find((x: any) => x.id === p);
    expect(row.counts).toMatchObject({ standby: 6, retired: 6 });
    expect(row.retired30).toBe(3);
    expect(row.daysLeft).toBe(60); // 6 ÷ (3 / 30)
    expect(row.expiring).toBe(1);
    expect(r.expiring.map((e: any) => e.id)).toContain(ids[6]);
  });

  test('a pool that holds domains cannot be deleted; names are unique', async () => {
    const p = await pool('满池');
    await importText('full.pool.dev', { poolId: p });
    expect((await call('DELETE', `/pools/${p}`)).code).toBe(40900);
    expect((await call('POST', '/pools', { name: '满池' })).code).toBe(40900);
    expect((await call('POST', '/pools', { name: '' })).code).toBe(40000);
  });

  test('the carousel shows each pool’s live domains as a percentage split', async () => {
    const p = await pool('轮播池');
    await importText('c1.carousel.dev', { poolId: p, status: 'active', weight: 1 });
    await importText('c2.carousel.dev', { poolId: p, status: 'active', weight: 3 });
    await importText('c3.carousel.dev', { poolId: p, status: 'standby', weight: 5 });
    const row = (await call('GET', '/overview/carousel')).data.pools.find((x: any) => x.id === p);
    expect(row.totalWeight).toBe(4);
    expect(row.domains.map((d: any) => [d.hostname, d.share])).toEqual([
      ['c2.carousel.dev', 75],
      ['c1.carousel.dev', 25],
    ]);
  });
});

describe('the carousel past its listing', () => {
  test('shares are over all of a pool’s live domains; an expired registration and an empty pool are shown as they are', async () => {
    const p = await pool('大轮播池');
    const n = 150;
    // 150 live domains of weight 1 and one of weight 50: the heaviest 100 are listed, shares over all 151
    await importText(Array.from({ length: n }, (_, i) => `l${i}.big.dev`).join('\n'), {
      poolId: p,
      status: 'active',
    });
    await importText('heavy.big.dev', { poolId: p, status: 'active', weight: 50 });
    // active but its registration ran out yesterday (the test clock is 2026-06-01): not live
    await importText('lapsed.big.dev', { poolId: p, status: 'active', weight: 100 });
    await api.query(sql`update domains set expires_on = '2026-05-31' where hostname = 'lapsed.big.dev'`);
    const empty = await pool('空轮播池');
    const r = (await call('GET', '/overview/carousel')).data;
    const row = r.pools.find((x: any) => x.id === p);
    expect(r.perPool).toBe(100);
    expect(row).toMatchObject({ count: n + 1, totalWeight: n + 50 });
    expect(row.domains).toHaveLength(100);
    expect(row.domains[0]).toMatchObject({ hostname: 'heavy.big.dev', share: 25 });
    expect(row.domains[1].share).toBe(0.5);
    expect(row.domains.some((d: any) => d.hostname === 'lapsed.big.dev')).toBe(false);
    expect(r.pools.find((x: any) => x.id === empty)).toMatchObject({ count: 0, totalWeight: 0, domains: [] });
  });
});

describe('settings', () => {
  test('read by any operator, saved by admins with the version; out-of-range values are 40000', async () => {
    const s = (await call('GET', '/setting', undefined, user)).data;
    expect(s).toMatchObject({ checkIntervalSeconds: 300, autoReplace: true });
    const body = {
      checkEnabled: true,
      checkIntervalSeconds: 60,
      checkTimeoutMs: 2000,
      failThreshold: 2,
      autoReplace: false,
      expiryWarnDays: 14,
    };
    expect((await call('PUT', '/setting', { ...body, version: s.version }, user)).code).toBe(40300);
    const saved = await call('PUT', '/setting', { ...body, version: s.version });
    expect(saved.data).toMatchObject(body);
    expect((await call('PUT', '/setting', { ...body, version: s.version })).code).toBe(40900);
    const bad = await call('PUT', '/setting', {
      ...body,
      checkIntervalSeconds: 5,
      version: saved.data.version,
    });
    expect(bad.data.fields.checkIntervalSeconds).toBeDefined();
  });
});

describe('roles', () => {
  test('operators read, import, edit and swap; pools, settings and deletes are for admins; no token is 50008', async () => {
    expect((await call('GET', '/domains', undefined, user)).code).toBe(20000);
    expect((await call('GET', '/history', undefined, user)).code).toBe(20000);
    expect((await call('GET', '/overview/runway', undefined, user)).code).toBe(20000);
    expect((await call('GET', '/overview/carousel', undefined, user)).code).toBe(20000);
    expect((await call('GET', '/config/channels', undefined, user)).code).toBe(20000);
    expect((await call('GET', '/pools', undefined, user)).code).toBe(20000);
    const d = (await call('POST', '/domains', { hostname: 'by-user.com' }, user)).data;
    expect(d.hostname).toBe('by-user.com');
    expect((await call('POST', '/pools', { name: 'x' }, user)).code).toBe(40300);
    expect((await call('DELETE', `/domains/${d.id}`, undefined, user)).code).toBe(40300);
    expect((await call('POST', '/domains/batch', { action: 'delete', ids: [d.id] }, user)).code).toBe(40300);
    expect(await byHost('by-user.com')).toBeDefined();
    expect((await call('DELETE', `/domains/${d.id}`)).code).toBe(20000);
    const h = (await call('GET', `/history?domainId=${d.id}`)).data.list.map((x: any) => x.action);
    expect(h).toContain('delete');
    for (const path of ['/domains', '/pools', '/history', '/setting', '/overview/runway', '/config/channels'])
      expect((await api.call('GET', `${D}${path}`)).body.code, path).toBe(50008);
  });
});

describe('seed', () => {
  test('deterministic sample data: four pools, 200 domains in every status, history', async () => {
    const { seedDomains } = await import('../../server/modules/domain/seed');
    const now = new Date('2026-06-01T00:00:00Z');
    await seedDomains(api.database.db, { seed: 3, tenant: 701, now, reviewer: null });
    await seedDomains(api.database.db, { seed: 3, tenant: 702, now, reviewer: null });
    const rows = await api.query<{ tenant: number; hostname: string; status: string }>(
      sql`select tenant, hostname, status from domains where tenant in (701, 702) order by tenant, id`,
    );
    const of = (t: number) => rows.filter((r) => r.tenant === t);
    expect(of(701)).toHaveLength(200);
    expect(of(701).map((r) => r.hostname)).toEqual(of(702).map((r) => r.hostname));
    expect(new Set(of(701).map((r) => r.status))).toEqual(
      new Set(['active', 'standby', 'blocked', 'expired', 'retired']),
    );
    expect(of(701).some((r) => r.hostname.startsWith('xn--'))).toBe(true);
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from domain_history where tenant = 701`,
    );
    expect(Number(n)).toBeGreaterThan(200);
  });
});
