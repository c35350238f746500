import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimHealthPass, runHealthCheck } from '../../server/modules/domain';
import { nodeProbe } from '../../server/node/domain-health';
import { startApi, type TestApi } from './harness';

/**
 * Issue #15: the health checker against servers this test starts on 127.0.0.1 (names mapped there by an injected
 * resolver): up, 5xx, silent (timeout), unknown name; blocking at the threshold and auto-replacement with history.
 */
let api: TestApi;
let admin: string;
let server: Server;
let port: number;
let silentPort: number;
let silent: Server;
let hits = 0;

const D = '/app/admin/domain';
const call = (method: string, path: string, body?: unknown) =>
  api.call(method, `${D}${path}`, { token: admin, body }).then((r) => r.body);
const tenant = () => api.config.defaultTenant;
const byHost = async (h: string) =>
  (await call('GET', `/domains?q=${h}&pageSize=100`)).data.list.find((d: any) => d.hostname === h);

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  server = createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0];
    hits++;
    res.statusCode = host.startsWith('down') ? 503 : 200;
    res.end('ok');
  });
  silent = createServer(() => {
    // never answers: the probe's timeout
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  silentPort = (silent.address() as AddressInfo).port;
  // The test servers are on the loopback address, which the outbound guard refuses unless an admin allows it.
  await api.call('POST', '/app/admin/sys/updateSetting', {
    token: admin,
    body: { outboundAllow: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  server.closeAllConnections();
  silent.closeAllConnections();
  server.close();
  silent.close();
  await api.close();
});

/** The checker on, with this failure threshold and auto-replacement (the rest as saved). */
async function switchOn(failThreshold: number, autoReplace: boolean) {
  const { lastCheckAt: _, updatedAt: __, ...s } = (await call('GET', '/setting')).data;
  await call('PUT', '/setting', { ...s, checkEnabled: true, failThreshold, autoReplace });
}

const resolver = async (h: string) => {
  if (h.startsWith('nxdomain')) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return '127.0.0.1';
};

describe('the probe', () => {
  test('up below 500; a 5xx, an unknown name and a silent server are down with the reason', async () => {
    const probe = nodeProbe({ resolve: resolver, port });
    const allow = ['127.0.0.1'];
    expect(await probe('up.example.com', 15_000, allow)).toEqual({ ok: true });
    expect(await probe('down.example.com', 15_000, allow)).toEqual({ ok: false, error: 'http 503' });
    expect(await probe('nxdomain.example.com', 15_000, allow)).toEqual({
      ok: false,
      error: 'dns: ENOTFOUND',
    });
    const slow = nodeProbe({ resolve: resolver, port: silentPort });
    expect(await slow('up.example.com', 300, allow)).toEqual({ ok: false, error: 'timeout' });
  });

  test('issue #48: a name DNS points at the inside is refused, never visited', async () => {
    const before = hits;
    const probe = nodeProbe({ resolve: resolver, port });
    expect(await probe('intranet.example.com', 15_000)).toEqual({
      ok: false,
      error: 'refused: internal address',
    });
    expect(await nodeProbe({ port })('foo.localhost', 15_000)).toEqual({
      ok: false,
      error: 'refused: internal address',
    });
    expect(hits).toBe(before);
  });
});

describe('a pass', () => {
  test('failures count up; at the threshold a channel domain is blocked and replaced by its pool’s standby', async () => {
    const pool = (await call('POST', '/pools', { name: 'health' })).data.id;
    const s = (await call('GET', '/setting')).data;
    await call('PUT', '/setting', {
      ...s,
      checkEnabled: true,
      failThreshold: 2,
      autoReplace: true,
      lastCheckAt: undefined,
      updatedAt: undefined,
    });
    await call('POST', '/domains/import', {
      text: 'up.example.com\ndown.example.com',
      poolId: pool,
      status: 'active',
      role: 'channel',
      channel: 'ag1',
    });
    await call('POST', '/domains/import', { text: 'spare.example.com', poolId: pool, status: 'standby' });
    await call('POST', '/domains/import', {
      text: 'nxdomain.example.com',
      poolId: pool,
      status: 'active',
      role: 'landing',
    });
    const probe = nodeProbe({ resolve: resolver, port });
    const now = () => api.clock.now();

    const first = await runHealthCheck(api.database.db, { tenant: tenant(), now, probe });
    expect(first).toMatchObject({ checked: 3, failed: 2, blocked: 0, replaced: 0 });
    expect(await byHost('down.example.com')).toMatchObject({
      status: 'active',
      failCount: 1,
      checkOk: false,
      checkError: 'http 503',
    });
    expect(await byHost('up.example.com')).toMatchObject({ checkOk: true, failCount: 0 });

    const second = await runHealthCheck(api.database.db, { tenant: tenant(), now, probe });
    expect(second).toMatchObject({ checked: 3, failed: 2, blocked: 2, replaced: 1 });
    expect(await byHost('down.example.com')).toMatchObject({ status: 'blocked', channel: null });
    expect(await byHost('spare.example.com')).toMatchObject({
      status: 'active',
      channel: 'ag1',
      role: 'channel',
    });
    // Not a channel domain: blocked, not replaced
    expect(await byHost('nxdomain.example.com')).toMatchObject({ status: 'blocked' });

    const history = (await call('GET', '/history?by=checker&pageSize=100')).data.list;
    expect(
      history
        .filter((h: any) => h.action === 'health')
        .map((h: any) => h.hostname)
        .sort(),
    ).toEqual(['down.example.com', 'nxdomain.example.com']);
    const replaced = history.filter((h: any) => h.action === 'replace');
    expect(replaced).toHaveLength(2);
    expect(replaced[0]).toMatchObject({
      actor: 'health-checker',
      actorId: null,
      from: 'down.example.com',
      to: 'spare.example.com',
      reason: 'http 503',
      channel: 'ag1',
    });
  });

  test('without auto-replacement a failed channel domain is only blocked', async () => {
    const pool = (await call('POST', '/pools', { name: 'manual' })).data.id;
    await switchOn(1, false);
    await call('POST', '/domains/import', {
      text: 'down2.example.com',
      poolId: pool,
      status: 'active',
      role: 'channel',
      channel: 'ag2',
    });
    await call('POST', '/domains/import', { text: 'spare2.example.com', poolId: pool, status: 'standby' });
    const r = await runHealthCheck(api.database.db, {
      tenant: tenant(),
      now: () => api.clock.now(),
      probe: nodeProbe({ resolve: resolver, port }),
    });
    expect(r.replaced).toBe(0);
    expect(await byHost('down2.example.com')).toMatchObject({ status: 'blocked' });
    expect(await byHost('spare2.example.com')).toMatchObject({ status: 'standby', channel: null });
  });

  test('a registration that ran out: marked expired by the pass, its channel replaced by a standby still registered', async () => {
    const pool = (await call('POST', '/pools', { name: 'lapsing' })).data.id;
    await switchOn(3, true);
    // The clock says 2026-06-01: one day past, one standby past too, one standby still registered
    const add = (hostname: string, status: string, expiresOn: string, channel: string | null = null) =>
      call('POST', '/domains', { hostname, status, expiresOn, channel, poolId: pool, role: 'channel' });
    await add('lapsed.example.com', 'active', '2026-05-31', 'ag3');
    await add('stale.example.com', 'standby', '2026-05-01');
    await add('fresh.example.com', 'standby', '2026-06-01');
    const r = await runHealthCheck(api.database.db, {
      tenant: tenant(),
      now: () => api.clock.now(),
      probe: nodeProbe({ resolve: resolver, port }),
    });
    expect(r).toMatchObject({ expired: 2, replaced: 1 });
    expect(await byHost('lapsed.example.com')).toMatchObject({ status: 'expired', channel: null });
    expect(await byHost('stale.example.com')).toMatchObject({ status: 'expired', channel: null });
    expect(await byHost('fresh.example.com')).toMatchObject({ status: 'active', channel: 'ag3' });
    const history = (await call('GET', '/history?by=checker&action=expire&pageSize=100')).data.list;
    expect(history.map((h: any) => [h.hostname, h.from, h.to, h.reason]).sort()).toEqual([
      ['lapsed.example.com', 'active', 'expired', 'expires_on 2026-05-31'],
      ['stale.example.com', 'standby', 'expired', 'expires_on 2026-05-01'],
    ]);
    const replaced = (await call('GET', '/history?action=replace&channel=ag3')).data.list;
    expect(replaced[0]).toMatchObject({ from: 'lapsed.example.com', to: 'fresh.example.com', actorId: null });
    // A second pass finds nothing more to expire
    const again = await runHealthCheck(api.database.db, {
      tenant: tenant(),
      now: () => api.clock.now(),
      probe: nodeProbe({ resolve: resolver, port }),
    });
    expect(again.expired).toBe(0);
  });

  test('issue #48: without the allow-list a pass records "refused: internal address" and reaches nothing', async () => {
    await switchOn(5, false);
    await call('POST', '/domains/import', {
      text: 'intranet.example.com',
      status: 'active',
      role: 'landing',
    });
    await api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body: { outboundAllow: [] } });
    const before = hits;
    await runHealthCheck(api.database.db, {
      tenant: tenant(),
      now: () => api.clock.now(),
      probe: nodeProbe({ resolve: resolver, port }),
    });
    expect(await byHost('intranet.example.com')).toMatchObject({
      checkOk: false,
      checkError: 'refused: internal address',
    });
    expect(hits).toBe(before);
    // Allowed again by the admin: reached
    await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { outboundAllow: ['127.0.0.1'] },
    });
    await runHealthCheck(api.database.db, {
      tenant: tenant(),
      now: () => api.clock.now(),
      probe: nodeProbe({ resolve: resolver, port }),
    });
    expect(await byHost('intranet.example.com')).toMatchObject({ checkOk: true, checkError: '' });
    expect(hits).toBeGreaterThan(before);
  });

  test('a pass is claimed once per interval, and only when the checker is on', async () => {
    const db = api.database.db;
    await api.query(sql`update domain_settings set last_check_at = null, check_interval_seconds = 60`);
    const t = new Date('2026-06-01T09:00:00Z');
    expect(await claimHealthPass(db, tenant(), t)).toBe(true);
    expect(await claimHealthPass(db, tenant(), new Date(t.getTime() + 30_000))).toBe(false);
    expect(await claimHealthPass(db, tenant(), new Date(t.getTime() + 61_000))).toBe(true);
    await api.query(sql`update domain_settings set check_enabled = false, last_check_at = null`);
    expect(await claimHealthPass(db, tenant(), t)).toBe(false);
  });
});
