import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { siteDoor } from './site-door';

/** Issue #14: the site's members — list, filters, masks, totals, batches, VIP read at the clock, ban and its undo. */
let api: TestApi;
let admin: string;
let user: string;
const BASE = '/app/admin/users';
const T0 = new Date('2026-06-01T08:00:00Z');
const day = 86_400_000;

async function member(account: string, over: Record<string, unknown> = {}) {
  const o = {
    phone: '13812345678',
    email: `${account}@example.com`,
    group: 'normal',
    vipLevel: 0,
    vipExpiresAt: null as string | null,
    status: 'active',
    channel: '',
    lastLoginAddress: '',
    ...over,
  };
  const [row] = await api.query<{ id: number }>(sql`
    insert into site_users (tenant, account, phone, email, "group", vip_level, vip_expires_at, status, channel,
      signup_at, last_login_address)
    values (2, ${account}, ${o.phone}, ${o.email}, ${o.group}, ${o.vipLevel}, ${o.vipExpiresAt}, ${o.status},
      ${o.channel}, ${T0.toISOString()}, ${o.lastLoginAddress})
    returning id`);
  return row.id;
}

const list = (query: string, token = admin) => api.call('GET', `${BASE}?${query}`, { token });
const batch = (body: Record<string, unknown>, token = admin) =>
  api.call('POST', `${BASE}/batch`, { token, body });

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
});
afterAll(() => api.close());

describe('the list', () => {
  test('contacts are masked, filters and prefixes work, totals come from the kept counts', async () => {
    const a = await member('alice', { channel: 'A1001' });
    await member('albert', { status: 'disabled', phone: '13900001111' });
    await member('bob', { group: 'vip' });
    const r = await list('q=ALI', user);
    expect(r.body.code).toBe(20000);
    expect(r.body.data.list).toHaveLength(1);
    expect(r.body.data.list[0]).toMatchObject({
      id: a,
      phone: '138****5678',
      email: 'a***e@example.com',
      channel: 'A1001',
      vipState: 'none',
    });
    expect((await list('q=139')).body.data.list.map((u: any) => u.account)).toEqual(['albert']);
    expect((await list('status=disabled')).body.data).toMatchObject({ total: 1, totalExact: true });
    expect((await list('group=vip')).body.data.list.map((u: any) => u.account)).toEqual(['bob']);
    expect((await list('channel=A1001')).body.data.total).toBe(1);
    // The kept count equals count(*) after inserts and a status change by SQL.
    await api.query(sql`update site_users set status = 'disabled' where account = 'bob'`);
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from site_users where status = 'disabled'`,
    );
    const [{ kept }] = await api.query<{ kept: number }>(
      sql`select n as kept from site_user_counts where tenant = 2 and status = 'disabled'`,
    );
    expect(kept).toBe(n);
    expect((await list('pageSize=10&status=disabled&sort=id&order=desc')).body.data.total).toBe(n);
  });

  test('a search counts each member once, whichever of account, phone and email matches', async () => {
    // 25 accounts start with "srch"; 10 of them also have an email that does (two branches, one member); 5 other
    // members match by email only; 3 of the 25 are disabled. A page of 10 is full, so the total is counted.
    await api.query(sql`
      insert into site_users (tenant, account, email, status)
      select 2, 'srch' || i, case when i <= 10 then 'srch' || i || '@example.com' else '' end,
        case when i > 22 then 'disabled' else 'active' end
      from generate_series(1, 25) as i`);
    await api.query(sql`
      insert into site_users (tenant, account, email)
      select 2, 'other' || i, 'SRCH.other' || i || '@example.com' from generate_series(1, 5) as i`);
    expect((await list('q=srch&pageSize=10')).body.data).toMatchObject({ total: 30, totalExact: true });
    expect((await list('q=srch&pageSize=10&status=active')).body.data).toMatchObject({
      total: 27,
      totalExact: true,
    });
    const all = await list('q=srch&pageSize=50');
    expect(all.body.data.list).toHaveLength(30);
  });

  test('sorts and pages do not overlap', async () => {
    for (let i = 0; i < 25; i++) await member(`page${String(i).padStart(2, '0')}`);
    const one = (await list('q=page&pageSize=10&page=1&sort=id&order=desc')).body.data;
    const two = (await list('q=page&pageSize=10&page=2&sort=id&order=desc')).body.data;
    const ids = [...one.list, ...two.list].map((u: any) => u.id);
    expect(new Set(ids).size).toBe(20);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(one.total).toBe(25);
  });

  test('bad input is 40000 naming the field; the admin reads contacts in full', async () => {
    for (const q of [
      'status=gone',
      'vip=maybe',
      'sort=password',
      'pageSize=7',
      'unknown=1',
      'signupFrom=x',
    ]) {
      const r = await list(q);
      expect(r.body.code, q).toBe(40000);
      expect(Object.keys(r.body.data.fields)[0], q).toBe(q.split('=')[0]);
    }
    const r = await api.call('GET', `${BASE}/999999`, { token: admin });
    expect(r.body.code).toBe(40400);
    const id = await member('fullview');
    expect((await api.call('GET', `${BASE}/${id}`, { token: admin })).body.data.phone).toBe('13812345678');
    expect((await api.call('GET', `${BASE}/${id}`, { token: user })).body.data.phone).toBe('138****5678');
    expect((await api.call('GET', BASE)).body.code).toBe(50008);
  });
});

describe('VIP', () => {
  test('the VIP filters count VIPs for life and until later as active, those past expiry as expired', async () => {
    const now = api.clock.now().getTime();
    const channel = 'VIPCOUNT';
    const hour = 3_600_000;
    const at = (hours: number) => new Date(now + hours * hour).toISOString();
    // Full pages of ten: each total is counted, not read off a short page.
    for (let i = 0; i < 8; i++) await member(`forlife${i}`, { channel, vipLevel: 3, vipExpiresAt: null });
    for (let i = 0; i < 4; i++) await member(`later${i}`, { channel, vipLevel: 1, vipExpiresAt: at(1 + i) });
    for (let i = 0; i < 11; i++)
      await member(`lapsed${i}`, { channel, vipLevel: 2, vipExpiresAt: at(-1 - i) });
    await member('never', { channel });
    const page = async (vip: string) => (await list(`channel=${channel}&vip=${vip}&pageSize=10`)).body.data;
    const active = await page('active');
    expect(active.total).toBe(12);
    expect(active.list).toHaveLength(10);
    expect((await page('expired')).total).toBe(11);
    expect((await page('none')).total).toBe(1);
    // Two and a half hours on, two of the four VIPs until later have lapsed.
    api.clock.advance(2.5 * hour);
    expect((await page('active')).total).toBe(10);
    expect((await page('expired')).total).toBe(13);
    api.clock.set(new Date(now));
  });

  test('an expired VIP reads as expired at once, and the vip filter reads the clock', async () => {
    const id = await member('vipsoon', {
      vipLevel: 2,
      vipExpiresAt: new Date(T0.getTime() + day).toISOString(),
    });
    const read = async () => (await api.call('GET', `${BASE}/${id}`, { token: admin })).body.data;
    expect((await read()).vipState).toBe('active');
    expect((await list('q=vipsoon&vip=active')).body.data.total).toBe(1);
    api.clock.advance(day + 1000);
    expect((await read()).vipState).toBe('expired');
    expect((await list('q=vipsoon&vip=active')).body.data.total).toBe(0);
    expect((await list('q=vipsoon&vip=expired')).body.data.total).toBe(1);
    // Extending an expired VIP counts from now, not from the past expiry; admins only.
    expect((await batch({ action: 'extendVip', ids: [id], days: 30 }, user)).body.code).toBe(40300);
    expect((await batch({ action: 'extendVip', ids: [id] })).body.code).toBe(40000);
    expect((await batch({ action: 'extendVip', ids: [id], days: 30 })).body.data.changed).toBe(1);
    const after = await read();
    expect(after.vipState).toBe('active');
    expect(new Date(after.vipExpiresAt).getTime()).toBe(api.clock.now().getTime() + 30 * day);
    api.clock.set(T0);
  });
});

describe('batches', () => {
  test('disable, enable and group; a missing id changes nothing', async () => {
    const a = await member('batch1');
    const b = await member('batch2');
    expect((await batch({ action: 'disable', ids: [a, b] }, user)).body.data.changed).toBe(2);
    const r = await batch({ action: 'enable', ids: [a, b, 987654] });
    expect(r.body.code).toBe(40400);
    expect((await list('q=batch&status=disabled')).body.data.total).toBe(2);
    expect((await batch({ action: 'enable', ids: [a, b] })).body.data.changed).toBe(2);
    expect((await batch({ action: 'group', ids: [a] })).body.code).toBe(40000);
    expect((await batch({ action: 'group', ids: [a], group: 'svip' })).body.data.changed).toBe(1);
    expect((await batch({ action: 'group', ids: [a], group: 'boss' })).body.code).toBe(40000);
    expect((await batch({ action: 'explode', ids: [a] })).body.code).toBe(40000);
  });
});

describe('ban and its undo', () => {
  const comment = async (userId: number, status: string) => {
    const [row] = await api.query<{ id: number }>(sql`
      insert into comments (tenant, target_type, target_id, user_id, content, status)
      values (2, 'movie', 1, ${userId}, 'hello', ${status}) returning id`);
    return row.id;
  };
  const statuses = async (userId: number) =>
    (
      await api.query<{ status: string }>(
        sql`select status from comments where user_id = ${userId} order by id`,
      )
    ).map((r) => r.status);
  const blacklists = async () =>
    (
      await api.query<{ module: string; blacklist: string[] }>(
        sql`select module, blacklist from comment_filters where tenant = 2 order by module`,
      )
    ).map((r) => `${r.module}:${r.blacklist.join(',')}`);

  test('one ban hides, bans and blacklists; one undo reverses exactly that', async () => {
    const id = await member('spammer', { lastLoginAddress: '203.0.113.9' });
    await comment(id, 'online');
    await comment(id, 'pending');
    await comment(id, 'rejected');
    const [{ id: entry }] = await api.query<{ id: number }>(sql`
      insert into guestbook (tenant, user_id, content, status) values (2, ${id}, 'hi', 'online') returning id`);
    expect((await api.call('POST', `${BASE}/${id}/ban`, { token: user })).body.code).toBe(40300);
    const before = await blacklists();
    const r = await api.call('POST', `${BASE}/${id}/ban`, { token: admin });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      hiddenComments: 2,
      hiddenGuestbook: 1,
      blacklisted: ['203.0.113.9'],
    });
    expect(r.body.data.user.status).toBe('banned');
    expect(await statuses(id)).toEqual(['offline', 'offline', 'rejected']);
    expect(await blacklists()).toEqual(['comment:203.0.113.9', 'guestbook:203.0.113.9']);
    expect((await api.call('POST', `${BASE}/${id}/ban`, { token: admin })).body.code).toBe(40900);
    // Changed since the ban: the first comment is shown again by hand; the undo leaves it as it is now.
    await api.query(sql`update comments set status = 'online' where user_id = ${id} and status = 'offline'
      and id = (select min(id) from comments where user_id = ${id})`);
    const u = await api.call('POST', `${BASE}/${id}/undo-ban`, { token: admin });
    expect(u.body.code).toBe(20000);
    expect(u.body.data).toMatchObject({ restored: 2, user: { status: 'active' } });
    expect(await statuses(id)).toEqual(['online', 'pending', 'rejected']);
    const [g] = await api.query<{ status: string }>(sql`select status from guestbook where id = ${entry}`);
    expect(g.status).toBe('online');
    expect(await blacklists()).toEqual(before.length ? before : ['comment:', 'guestbook:']);
    expect((await api.call('POST', `${BASE}/${id}/undo-ban`, { token: admin })).body.code).toBe(40900);
  });

  test('a failing ban changes nothing (all or nothing)', async () => {
    const id = await member('atomic', { lastLoginAddress: '198.51.100.7' });
    await comment(id, 'online');
    // Make the ban's last step fail: the ban record's user no longer satisfies its check.
    await api.query(
      sql`alter table site_user_bans add constraint no_bans_for_test check (user_id < 0) not valid`,
    );
    try {
      const r = await api.call('POST', `${BASE}/${id}/ban`, { token: admin });
      expect(r.status).toBe(500);
      expect(await statuses(id)).toEqual(['online']);
      const [u] = await api.query<{ status: string }>(sql`select status from site_users where id = ${id}`);
      expect(u.status).toBe('active');
      expect((await blacklists()).join()).not.toContain('198.51.100.7');
    } finally {
      await api.query(sql`alter table site_user_bans drop constraint no_bans_for_test`);
    }
  });
});

describe('signups from the site', () => {
  test('the site records a member with their agent code and inviter; bad input and a taken account are refused', async () => {
    const door = await siteDoor(api, admin);
    const signup = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      door.signed('/app/site/users', body, headers);
    const first = await signup({ account: 'newbie', address: '198.51.100.20', channel: 'A1001' });
    expect(first.body.data).toMatchObject({ account: 'newbie' });
    const invited = await signup({ account: 'friend', address: '2001:db8::20', inviter: first.body.data.id });
    expect(invited.body.code).toBe(20000);
    const read = (await api.call('GET', `${BASE}/${invited.body.data.id}`, { token: admin })).body.data;
    expect(read).toMatchObject({
      inviter: first.body.data.id,
      signupAddress: '2001:db8::20',
      status: 'active',
    });
    expect((await list('channel=A1001&q=newbie')).body.data.total).toBe(1);
    expect((await signup({ account: 'newbie', address: '198.51.100.20' })).body.code).toBe(40900);
    expect((await signup({ account: 'x1', address: 'nowhere' })).body.code).toBe(40000);
    const badInviter = await signup({ account: 'x2', address: '198.51.100.20', inviter: 999999 });
    expect(Object.keys(badInviter.body.data.fields)).toEqual(['inviter']);
    expect((await signup({ account: 'x3', address: '198.51.100.20' }, { 'Site-Key': '' })).body.code).toBe(
      40100,
    );
    // The browser key alone cannot register a member.
    const browser = await door.browser('/app/site/users', { account: 'x5', address: '198.51.100.20' });
    expect(browser.body.code).toBe(40300);
    expect(
      (await api.call('POST', '/app/site/users', { token: admin, body: { account: 'x4' } })).body.code,
    ).toBe(40100);
  });
});

describe('member login from the site', () => {
  test("a member's password is checked; a MacCMS hash once, then ours replaces it in the same transaction", async () => {
    const door = await siteDoor(api, admin);
    const login = (body: Record<string, unknown>) => door.signed('/app/site/users/login', body);
    const signup = await door.signed('/app/site/users', {
      account: 'logs-in',
      address: '198.51.100.30',
      password: 'open-sesame-1',
    });
    expect(signup.body.code).toBe(20000);
    const good = await login({ account: 'logs-in', password: 'open-sesame-1', address: '198.51.100.31' });
    expect(good.body).toMatchObject({
      code: 20000,
      data: {
        id: signup.body.data.id,
        account: 'logs-in',
        group: 'normal',
        vipLevel: 0,
        vipExpiresAt: null,
        vipState: 'none',
      },
    });
    expect(Object.keys(good.body.data)).not.toContain('passwordHash');
    const [seen] = await api.query<{ last_login_address: string }>(
      sql`select last_login_address from site_users where id = ${signup.body.data.id}`,
    );
    expect(seen.last_login_address).toBe('198.51.100.31');
    // The account as the password reset finds it: a look-alike of it (case, full width) names the same member.
    for (const account of ['LOGS-IN', 'ｌｏｇｓ-ｉｎ'])
      expect((await login({ account, password: 'open-sesame-1' })).body.data?.id, account).toBe(
        signup.body.data.id,
      );
    // A wrong password and an unknown account get the same answer.
    const wrong = await login({ account: 'logs-in', password: 'open-sesame-2' });
    const nobody = await login({ account: 'no-such-member', password: 'open-sesame-1' });
    expect([wrong.body.code, nobody.body.code]).toEqual([40100, 40100]);
    expect(wrong.body.msg).toBe(nobody.body.msg);
    // The browser key alone cannot check a password; bad input names the field.
    const browser = await door.browser('/app/site/users/login', {
      account: 'logs-in',
      password: 'open-sesame-1',
    });
    expect(browser.body.code).toBe(40300);
    const bad = await login({ account: 'logs-in' });
    expect(bad.body.code).toBe(40000);
    expect(Object.keys(bad.body.data.fields)).toEqual(['password']);

    // A member moved from MacCMS, VIP until a date, with the md5 MacCMS kept.
    const until = new Date(T0.getTime() + 30 * day).toISOString();
    const moved = await member('from-maccms', { group: 'vip', vipLevel: 1, vipExpiresAt: until });
    const md5 = createHash('md5').update('secret1').digest('hex');
    await api.query(sql`update site_users set legacy_password = ${md5} where id = ${moved}`);
    const stored = async () =>
      (
        await api.query<{ legacy_password: string | null; password_hash: string | null }>(
          sql`select legacy_password, password_hash from site_users where id = ${moved}`,
        )
      )[0];
    // A wrong guess leaves the MacCMS hash in place; sending the md5 itself is no password.
    expect((await login({ account: 'from-maccms', password: 'secret2' })).body.code).toBe(40100);
    expect((await login({ account: 'from-maccms', password: md5 })).body.code).toBe(40100);
    expect(await stored()).toEqual({ legacy_password: md5, password_hash: null });
    const first = await login({ account: 'from-maccms', password: 'secret1' });
    expect(first.body.data).toMatchObject({ id: moved, group: 'vip', vipLevel: 1, vipState: 'active' });
    expect(new Date(first.body.data.vipExpiresAt).toISOString()).toBe(until);
    const after = await stored();
    expect(after.legacy_password).toBeNull();
    expect(after.password_hash).toMatch(/^pbkdf2-sha256\$/);
    // From now on ours is checked.
    expect((await login({ account: 'from-maccms', password: 'secret1' })).body.code).toBe(20000);
    expect((await login({ account: 'from-maccms', password: 'secret2' })).body.code).toBe(40100);

    // A disabled member with the right password is told so; with a wrong one, nothing more than a wrong password.
    await api.query(sql`update site_users set status = 'disabled' where id = ${moved}`);
    expect((await login({ account: 'from-maccms', password: 'secret1' })).body.code).toBe(40300);
    expect((await login({ account: 'from-maccms', password: 'secret2' })).body.code).toBe(40100);
  });

  test('a MacCMS hash whose upgrade fails stays, so the member can log in again (one transaction)', async () => {
    const door = await siteDoor(api, admin);
    const id = await member('upgrade-fails');
    const md5 = createHash('md5').update('secret1').digest('hex');
    await api.query(sql`update site_users set legacy_password = ${md5} where id = ${id}`);
    await api.query(sql`create function users_test_refuse() returns trigger language plpgsql as $$
      begin if new.password_hash is not null and new.account = 'upgrade-fails' then raise exception 'refused for the test'; end if; return new; end $$`);
    await api.query(
      sql`create trigger users_test_refuse before update on site_users for each row execute function users_test_refuse()`,
    );
    try {
      const r = await door.signed('/app/site/users/login', { account: 'upgrade-fails', password: 'secret1' });
      expect(r.status).toBe(500);
      const [row] = await api.query<{ legacy_password: string | null }>(
        sql`select legacy_password from site_users where id = ${id}`,
      );
      expect(row.legacy_password).toBe(md5);
    } finally {
      await api.query(sql`drop trigger users_test_refuse on site_users`);
      await api.query(sql`drop function users_test_refuse()`);
    }
    const again = await door.signed('/app/site/users/login', {
      account: 'upgrade-fails',
      password: 'secret1',
    });
    expect(again.body.code).toBe(20000);
  });
});
