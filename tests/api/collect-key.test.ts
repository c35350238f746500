import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { KEY_MASK } from '../../server/modules/collect/key';
import { createGuardedFetch } from '../../server/node/outbound';
import { type FixtureSite, runToEnd, SITE_KEY, startFixtureSite } from './collect-helpers';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * Issue #49: a resource site's key (`?key=`). Written in the URL or in its own field, it is kept apart from the URL,
 * answered masked to the admin and to every operator, kept when the mask is sent back, changed by the admin only,
 * sent to the site, and never in the audit log nor in what a failed run keeps of the site's words.
 */
let api: TestApi;
let admin: string;
let user: string;
let site: FixtureSite;
const guard = createGuardedFetch();
const C = '/app/admin/collect';
const call = (method: string, path: string, body?: unknown, token = admin) =>
  api.call(method, `${C}${path}`, { token, body }).then((r) => r.body);
const keyed = () => `http://127.0.0.1:${site.port}/keyed/api.php/provide/vod/`;

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startApi({}, { outbound: guard });
  admin = await api.login();
  await api.createOperator(admin, { account: 'clerk', nickname: '小李' });
  user = await api.login('clerk', USER_PASSWORD);
  await api.call('POST', '/app/admin/sys/updateSetting', {
    token: admin,
    body: { outboundAllow: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

const runTo = (sourceId: number) => runToEnd(api, admin, { sourceId, kind: 'hours', dryRun: true });

test('a key in the URL moves to the key field; everyone reads it masked; the site gets it', async () => {
  const made = await call('POST', '/sources', { name: '带密钥', url: `${keyed()}?key=${SITE_KEY}&ac=list` });
  expect(made.code, JSON.stringify(made)).toBe(20000);
  expect(made.data).toMatchObject({ url: `${keyed()}?ac=list`, apiKey: KEY_MASK });
  const [row] = await api.query<any>(
    sql`select url, api_key from collect_sources where id = ${made.data.id}`,
  );
  expect(row).toEqual({ url: `${keyed()}?ac=list`, api_key: SITE_KEY });
  for (const token of [admin, user]) {
    const one = (await call('GET', `/sources/${made.data.id}`, undefined, token)).data;
    expect(one).toMatchObject({ apiKey: KEY_MASK });
    const list = (await call('GET', '/sources', undefined, token)).data.list;
    expect(JSON.stringify(list)).not.toContain(SITE_KEY);
  }
  const t = await call('POST', `/sources/${made.data.id}/test`);
  expect(t.data).toMatchObject({ ok: true, total: 8 });
  expect(site.requests.at(-1)?.get('key')).toBe(SITE_KEY);

  // The form sent back as read (the mask): the key stays. A new key is the admin's to set, not an operator's.
  const again = await call('PUT', `/sources/${made.data.id}`, {
    ...one(made.data),
    name: '带密钥2',
    apiKey: KEY_MASK,
  });
  expect(again.code, JSON.stringify(again)).toBe(20000);
  expect(
    (await api.query<any>(sql`select api_key from collect_sources where id = ${made.data.id}`))[0],
  ).toEqual({ api_key: SITE_KEY });
  const byUser = await call('PUT', `/sources/${made.data.id}`, { ...one(again.data), apiKey: 'mine' }, user);
  expect(byUser.code).toBe(40300);
  const bad = await call('PUT', `/sources/${made.data.id}`, { ...one(again.data), apiKey: 'a b' });
  expect(Object.keys(bad.data.fields)).toEqual(['apiKey']);

  // A URL answered masks any parameter named like a secret (a token the site wants besides its key).
  const other = await call('POST', '/sources', { name: '带令牌', url: `${keyed()}?token=T0ken-9` });
  expect(other.data.url).toBe(`${keyed()}?token=${KEY_MASK}`);

  // The audit log never holds the key: the URL it keeps has none, the key field is redacted.
  const entries = await api.query<any>(
    sql`select changes::text as c from audit_log where section = 'collect'`,
  );
  expect(entries.length).toBeGreaterThan(0);
  for (const e of entries) expect(e.c).not.toContain(SITE_KEY);
});

test('a wrong key: the site’s refusal is kept without the key, on the run and on the source', async () => {
  const made = await call('POST', '/sources', { name: '错密钥', url: keyed(), apiKey: 'Wr0ng-K3y-42' });
  expect(made.data.apiKey).toBe(KEY_MASK);
  const t = await call('POST', `/sources/${made.data.id}/test`);
  expect(t.data.ok).toBe(false);
  expect(t.data.error).toContain(`key ${KEY_MASK} is not valid`);
  expect(t.data.error).not.toContain('Wr0ng-K3y-42');
  const r = await runTo(made.data.id);
  expect(r.status).toBe('failed');
  expect(r.errorText).toContain(KEY_MASK);
  const stored = await api.query<any>(sql`
    select r.error_detail, s.last_error from collect_runs r join collect_sources s on s.id = r.source_id
    where r.source_id = ${made.data.id}`);
  expect(JSON.stringify(stored)).not.toContain('Wr0ng-K3y-42');
  // Set right by the admin, the same site answers.
  const fixed = await call('PUT', `/sources/${made.data.id}`, { ...one(made.data), apiKey: SITE_KEY });
  expect(fixed.code, JSON.stringify(fixed)).toBe(20000);
  expect((await call('POST', `/sources/${made.data.id}/test`)).data.ok).toBe(true);
});

/** A source as the edit form sends it back: its writable fields as read. */
function one(s: any) {
  const { name, url, apiKey, format, trusted, imageMode, scheduleMinutes, scheduleHours, enabled, version } =
    s;
  return { name, url, apiKey, format, trusted, imageMode, scheduleMinutes, scheduleHours, enabled, version };
}

test('migration 0205 moves a key the stored URLs carry into the key field, the rest of each URL as it was', async () => {
  const file = readFileSync(
    join(import.meta.dirname, '../../server/db/migrations/0205_collect_source_key.sql'),
    'utf8',
  );
  const update = file.split('--> statement-breakpoint')[1];
  expect(update).toMatch(/^\s*UPDATE "collect_sources"/);
  const urls = [
    'http://a.example/api.php/provide/vod/?key=K1',
    'http://b.example/api.php/provide/vod/?ac=list&key=K2&t=1',
    'http://c.example/api.php/provide/vod/?ac=list&key=K3',
    'http://d.example/api.php/provide/vod/?monkey=1',
  ];
  for (const [i, url] of urls.entries())
    await api.query(sql`insert into collect_sources (name, url) values (${`迁移${i}`}, ${url})`);
  // as the migration runs it, on rows stored before it (their key still in the URL)
  await api.query(sql.raw(update));
  const rows = await api.query<any>(
    sql`select url, api_key from collect_sources where name like '迁移%' order by name`,
  );
  expect(rows).toEqual([
    { url: 'http://a.example/api.php/provide/vod/', api_key: 'K1' },
    { url: 'http://b.example/api.php/provide/vod/?ac=list&t=1', api_key: 'K2' },
    { url: 'http://c.example/api.php/provide/vod/?ac=list', api_key: 'K3' },
    { url: 'http://d.example/api.php/provide/vod/?monkey=1', api_key: '' },
  ]);
});
