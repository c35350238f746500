import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sha256Hex, verifyPassword } from '../../server/core/crypto';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { siteDoor } from './site-door';

/**
 * Issue #52: a member's own page — the member with their bans, the admin's edit of group, VIP and points on the
 * version read, and the one-time code with which the member sets a new password through the site's signed route.
 */
let api: TestApi;
let admin: string;
let user: string;
let door: Awaited<ReturnType<typeof siteDoor>>;
const BASE = '/app/admin/users';
const hour = 3_600_000;

async function member(account: string, over: { vipLevel?: number; vipExpiresAt?: string | null } = {}) {
  const [row] = await api.query<{ id: number }>(sql`
    insert into site_users (tenant, account, account_key, vip_level, vip_expires_at, last_login_address,
      legacy_password)
    values (2, ${account}, ${account.toLowerCase()}, ${over.vipLevel ?? 0}, ${over.vipExpiresAt ?? null},
      '203.0.113.50', 'e10adc3949ba59abbe56e057f20f883e')
    returning id`);
  return row.id;
}
const read = async (id: number, token = admin) => (await api.call('GET', `${BASE}/${id}`, { token })).body;
const edit = (id: number, body: Record<string, unknown>, token = admin, lang?: string) =>
  api.call('PUT', `${BASE}/${id}`, {
    token,
    body,
    headers: lang ? { 'Accept-Language': lang } : {},
  });
const issue = (id: number, token = admin) => api.call('POST', `${BASE}/${id}/reset-code`, { token });
const reset = (body: Record<string, unknown>) => door.signed('/app/site/users/reset', body);
const state = async (id: number, token = admin) =>
  (await api.call('GET', `${BASE}/${id}/reset-code`, { token })).body;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
  door = await siteDoor(api, admin);
});
afterAll(() => api.close());

describe('the edit of group, VIP and points', () => {
  test('an admin saves on the version read; a stale version is 40900 and nothing is written', async () => {
    const id = await member('editme');
    const before = (await read(id)).data;
    const r = await edit(id, {
      group: 'svip',
      vipLevel: 2,
      vipExpiresAt: '2026-12-31T16:00:00Z',
      points: 1200,
      version: before.version,
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      group: 'svip',
      vipLevel: 2,
      vipExpiresAt: '2026-12-31T16:00:00.000Z',
      vipState: 'active',
      points: 1200,
      version: before.version + 1,
    });
    // Someone saved first: the old version is refused, the first save stays.
    const stale = await edit(id, { group: 'normal', points: 1, version: before.version });
    expect(stale.body.code).toBe(40900);
    expect(stale.body.data).toBeNull();
    expect((await read(id)).data).toMatchObject({ group: 'svip', points: 1200, version: before.version + 1 });
    // The audit log has the saved change's fields before and after, and nothing of the refused one.
    const logged = await api.query<{ action: string; changes: any }>(
      sql`select action, changes from audit_log where resource = 'members' and record_id = ${String(id)} order by id`,
    );
    expect(logged).toHaveLength(1);
    expect(logged[0].action).toBe('update');
    expect(logged[0].changes.before).toMatchObject({ group: before.group, points: before.points });
    expect(logged[0].changes.after).toMatchObject({ group: 'svip', points: 1200, vipLevel: 2 });
    // A VIP for life: a level without expiry.
    const life = await edit(id, { vipExpiresAt: null, version: before.version + 1 });
    expect(life.body.data).toMatchObject({ vipLevel: 2, vipExpiresAt: null, vipState: 'active' });
  });

  test('taking the level away ends the expiry; an expiry with level 0 is refused naming the field', async () => {
    const id = await member('novip', { vipLevel: 1, vipExpiresAt: '2026-07-01T00:00:00Z' });
    const v = (await read(id)).data.version;
    const bad = await edit(
      id,
      { vipLevel: 0, vipExpiresAt: '2026-08-01T00:00:00Z', version: v },
      admin,
      'en-US',
    );
    expect(bad.body.code).toBe(40000);
    expect(Object.keys(bad.body.data.fields)).toEqual(['vipExpiresAt']);
    expect(bad.body.msg).toBe('VIP until: A VIP expiry needs a VIP level above 0');
    expect((await read(id)).data).toMatchObject({ vipLevel: 1, version: v });
    const ok = await edit(id, { vipLevel: 0, version: v });
    expect(ok.body.data).toMatchObject({ vipLevel: 0, vipExpiresAt: null, vipState: 'none' });
  });

  test('bad input is 40000 naming the field in the request language; a missing member is 40400', async () => {
    const id = await member('badinput');
    const v = (await read(id)).data.version;
    for (const [body, field] of [
      [{ group: 'boss', version: v }, 'group'],
      [{ vipLevel: 10, version: v }, 'vipLevel'],
      [{ points: -1, version: v }, 'points'],
      [{ points: 1.5, version: v }, 'points'],
      [{ vipLevel: 1, vipExpiresAt: 'tomorrow', version: v }, 'vipExpiresAt'],
      [{ points: 3 }, 'version'],
    ] as const) {
      const r = await edit(id, body, admin, 'zh-CN');
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(body)).toEqual([field]);
    }
    const zh = await edit(id, { points: -1, version: v }, admin, 'zh-CN');
    expect(zh.body.msg).toMatch(/^积分：/);
    expect((await read(id)).data.version).toBe(v);
    expect((await edit(999_999, { points: 1, version: 1 })).body.code).toBe(40400);
  });

  test('operators (user role) read the member and their bans but may not edit or issue codes', async () => {
    const id = await member('readonly');
    const v = (await read(id)).data.version;
    expect((await edit(id, { points: 5, version: v }, user)).body.code).toBe(40300);
    expect((await issue(id, user)).body.code).toBe(40300);
    expect((await state(id, user)).code).toBe(40300);
    expect((await read(id, user)).code).toBe(20000);
    expect((await api.call('GET', `${BASE}/${id}/bans`, { token: user })).body.code).toBe(20000);
    expect((await read(id)).data.version).toBe(v);
  });
});

describe('the ban history', () => {
  test('each ban newest first: when, by whom, what it hid and blacklisted, and its undo', async () => {
    const id = await member('banhist');
    await api.query(sql`insert into comments (tenant, target_type, target_id, user_id, content, status)
      values (2, 'movie', 1, ${id}, 'spam', 'online'), (2, 'movie', 1, ${id}, 'more', 'pending')`);
    const empty = await api.call('GET', `${BASE}/${id}/bans`, { token: admin });
    expect(empty.body.data.list).toEqual([]);
    expect((await api.call('POST', `${BASE}/${id}/ban`, { token: admin })).body.code).toBe(20000);
    api.clock.advance(hour);
    expect((await api.call('POST', `${BASE}/${id}/undo-ban`, { token: admin })).body.code).toBe(20000);
    expect((await api.call('POST', `${BASE}/${id}/ban`, { token: admin })).body.code).toBe(20000);
    const { list } = (await api.call('GET', `${BASE}/${id}/bans`, { token: user })).body.data;
    const [adminId] = await api.query<{ id: number }>(sql`select id from operators where account = 'admin'`);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ undoneAt: null, undoneBy: null, bannedBy: adminId.id });
    expect(list[1]).toMatchObject({
      bannedAt: '2026-06-01T08:00:00.000Z',
      bannedBy: adminId.id,
      undoneAt: '2026-06-01T09:00:00.000Z',
      undoneBy: adminId.id,
      hiddenComments: 2,
      hiddenGuestbook: 0,
      blacklisted: ['203.0.113.50'],
    });
    expect((await api.call('GET', `${BASE}/999999/bans`, { token: admin })).body.code).toBe(40400);
    api.clock.set(new Date('2026-06-01T08:00:00Z'));
  });
});

describe('the password reset code', () => {
  test('shown once, kept only hashed; the member sets a password with it once', async () => {
    const id = await member('Forgetful');
    const v = (await read(id)).data.version;
    expect((await state(id)).data).toBeNull();
    const r = await issue(id);
    expect(r.body.code).toBe(20000);
    const { code, expiresAt } = r.body.data;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(expiresAt).toBe('2026-06-02T08:00:00.000Z');
    // Only its hash is stored: the code's text is nowhere in the table.
    const rows = await api.query<Record<string, unknown>>(
      sql`select * from site_user_reset_codes where user_id = ${id}`,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(code.replace(/-/g, ''));
    // The audit log says a code was issued and until when, never the code.
    const logged = await api.query<{ changes: unknown }>(
      sql`select changes from audit_log where action = 'reset-code' and record_id = ${String(id)}`,
    );
    expect(logged).toEqual([{ changes: { after: { expiresAt } } }]);
    expect(rows[0].code_hash).toBe(await sha256Hex(code.replace(/-/g, '')));
    // Nothing on the member's reads names it; its state says who issued it and that it is unused.
    expect(JSON.stringify(await read(id))).not.toContain(code);
    const [{ id: adminId }] = await api.query<{ id: number }>(
      sql`select id from operators where account = 'admin'`,
    );
    const issued = await state(id);
    expect(issued.data).toEqual({
      issuedAt: '2026-06-01T08:00:00.000Z',
      issuedBy: adminId,
      expiresAt,
      usedAt: null,
      state: 'unused',
    });
    expect(JSON.stringify(issued)).not.toContain(code);

    // Typed back in lower case without dashes, with the account in another case: the new password is set.
    const done = await reset({
      account: 'forgetful',
      code: code.replace(/-/g, '').toLowerCase(),
      newPassword: 'new-pass-42',
    });
    expect(done.body).toMatchObject({ code: 20000, data: { id, account: 'Forgetful' } });
    const [u] = await api.query<{ password_hash: string; legacy_password: string | null }>(
      sql`select password_hash, legacy_password from site_users where id = ${id}`,
    );
    expect(await verifyPassword('new-pass-42', u.password_hash)).toBe(true);
    expect(u.legacy_password).toBeNull();
    // The member logs in with it on the site (the signed login reads the same hash).
    const login = await door.signed('/app/site/users/login', {
      account: 'Forgetful',
      password: 'new-pass-42',
    });
    expect(login.body).toMatchObject({ code: 20000, data: { id, account: 'Forgetful' } });
    const wrong = await door.signed('/app/site/users/login', {
      account: 'Forgetful',
      password: 'old-pass-41',
    });
    expect(wrong.body.code).toBe(40100);
    expect((await read(id)).data.version).toBe(v + 1);
    expect((await state(id)).data).toMatchObject({ usedAt: '2026-06-01T08:00:00.000Z', state: 'used' });
    // Once only.
    const again = await reset({ account: 'Forgetful', code, newPassword: 'other-pass-43' });
    expect(again.body.code).toBe(40000);
    expect(Object.keys(again.body.data.fields)).toEqual(['code']);
    const [still] = await api.query<{ password_hash: string }>(
      sql`select password_hash from site_users where id = ${id}`,
    );
    expect(still.password_hash).toBe(u.password_hash);
  });

  test('a wrong, expired or replaced code and an unknown account are refused alike; wrong tries spend it', async () => {
    const id = await member('tries');
    const hashOf = async () =>
      (
        await api.query<{ password_hash: string | null }>(
          sql`select password_hash from site_users where id = ${id}`,
        )
      )[0].password_hash;
    // Replaced: a newer code makes the older one useless.
    const first = (await issue(id)).body.data.code;
    const second = (await issue(id)).body.data.code;
    const wrong = async (body: Record<string, unknown>, lang = 'en-US') => {
      const r = await door.signed('/app/site/users/reset', body, { 'Accept-Language': lang });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      return r.body;
    };
    const replaced = await wrong({ account: 'tries', code: first, newPassword: 'pass-word-1' });
    expect(Object.keys(replaced.data.fields)).toEqual(['code']);
    expect(replaced.msg).toBe(
      'Reset code: The code is wrong, used or expired, or the account does not exist',
    );
    const unknown = await wrong({ account: 'nobody', code: second, newPassword: 'pass-word-1' }, 'zh-CN');
    expect(unknown.msg).toBe('重置码：重置码错误、已使用或已过期，或账号不存在');
    // A weak password is refused before the code is looked at, and does not count as a try.
    expect(
      Object.keys((await wrong({ account: 'tries', code: second, newPassword: 'short' })).data.fields),
    ).toEqual(['newPassword']);
    // Five wrong codes (the first one's is one of them) spend the code: the right one no longer works.
    for (let i = 0; i < 4; i++)
      await wrong({ account: 'tries', code: 'AAAA-BBBB-CCCC', newPassword: 'pass-word-1' });
    await wrong({ account: 'tries', code: second, newPassword: 'pass-word-1' });
    expect(await hashOf()).toBeNull();
    expect((await state(id)).data).toMatchObject({ usedAt: null, state: 'spent' });

    // Expired: a day and a second later the code is refused.
    const third = (await issue(id)).body.data.code;
    api.clock.advance(24 * hour + 1000);
    expect((await state(id)).data.state).toBe('expired');
    await wrong({ account: 'tries', code: third, newPassword: 'pass-word-1' });
    api.clock.set(new Date('2026-06-01T08:00:00Z'));
    expect(await hashOf()).toBeNull();

    // Within its time, the latest code works.
    const fourth = (await issue(id)).body.data.code;
    expect((await reset({ account: 'tries', code: fourth, newPassword: 'pass-word-1' })).body.code).toBe(
      20000,
    );
    expect(await hashOf()).not.toBeNull();
  });

  test("the route is the site's server's only: the browser key and an operator session are refused", async () => {
    const id = await member('signedonly');
    const code = (await issue(id)).body.data.code;
    const body = { account: 'signedonly', code, newPassword: 'pass-word-9' };
    expect((await door.browser('/app/site/users/reset', body)).body.code).toBe(40300);
    expect((await api.call('POST', '/app/site/users/reset', { token: admin, body })).body.code).toBe(40100);
    expect((await issue(999_999)).body.code).toBe(40400);
    // The refused attempts left the code usable.
    expect((await reset(body)).body.code).toBe(20000);
  });
});
