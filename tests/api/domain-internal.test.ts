import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * Issue #48: names of the inside are refused where domains are typed (create and import), with a field error in the
 * request's language, for every operator; an admin's outbound allow-list lets a named internal host in.
 */
let api: TestApi;
let admin: string;
let user: string;
const D = '/app/admin/domain';

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'domainer', role: 'user' });
  user = await api.login('domainer', USER_PASSWORD);
});
afterAll(() => api.close());

const INTERNAL = [
  'metadata.google.internal',
  'x.svc.cluster.local',
  'foo.localhost',
  'a.127.0.0.1.nip.io',
  '10-0-0-1.sslip.io',
  'http://printer.local/',
];

describe('domain forms refuse names of the inside', () => {
  test('create: a field error on hostname, in both languages', async () => {
    for (const hostname of INTERNAL) {
      const r = await api.call('POST', `${D}/domains`, { token: user, body: { hostname } });
      expect(r.body.code, hostname).toBe(40000);
      expect(r.body.data.fields.hostname, hostname).toContain('内部网络');
    }
    const en = await api.call('POST', `${D}/domains`, {
      token: user,
      body: { hostname: 'metadata.google.internal' },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(en.body.data.fields.hostname).toContain('inside the network');
    const rows = await api.call('GET', `${D}/domains?pageSize=100`, { token: user });
    expect(rows.body.data.list.map((d: any) => d.hostname)).not.toContain('metadata.google.internal');
  });

  test('import: each such line is a problem and nothing is saved', async () => {
    const r = await api.call('POST', `${D}/domains/import`, {
      token: user,
      body: { text: [...INTERNAL, 'fine.example.com'].join('\n') },
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.data.problems.map((p: any) => p.error)).toEqual(INTERNAL.map(() => 'internal'));
    expect(r.body.data.problems[0].message).toContain('内部网络');
  });

  test("the admin's allow-list lets a named internal host in; the setting is checked and admin-only", async () => {
    const bad = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { outboundAllow: ['10.0.0.0/99'] },
    });
    expect(bad.body.code).toBe(40000);
    expect(Object.keys(bad.body.data.fields)[0]).toMatch(/^outboundAllow/);
    const denied = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: user,
      body: { outboundAllow: ['*.svc.cluster.local'] },
    });
    expect(denied.body.code).toBe(40300);
    const saved = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { outboundAllow: ['*.svc.cluster.local', 'metadata.google.internal'] },
    });
    expect(saved.body.code).toBe(20000);
    const created = await api.call('POST', `${D}/domains`, {
      token: user,
      body: { hostname: 'x.svc.cluster.local' },
    });
    expect(created.body.code).toBe(20000);
    const imported = await api.call('POST', `${D}/domains/import`, {
      token: user,
      body: { text: 'metadata.google.internal\nfoo.localhost', skipBad: true },
    });
    expect(imported.body.data).toMatchObject({ saved: 1, invalid: 1 });
  });
});
