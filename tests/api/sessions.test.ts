import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../server/config';
import { sha256Hex, verifyPassword } from '../../server/core/crypto';
import { ADMIN_PASSWORD, startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #2 §3 and DESIGN.md §7: sessions, revocation, expiry, replacement, hashing; and the info route. */
let api: TestApi;
let admin: string;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const IDLE_HOURS = 48;

beforeAll(async () => {
  api = await startApi({ SESSION_IDLE_HOURS: String(IDLE_HOURS) });
  admin = await api.login();
});
afterAll(() => api.close());

const info = (token?: string, query = '') => api.call('GET', `/app/admin/info${query}`, { token });
let n = 0;
async function newUser(role: 'user' | 'admin' = 'user') {
  const account = `sess${++n}`;
  const id = await api.createOperator(admin, { account, role });
  return { id, account, token: await api.login(account, USER_PASSWORD) };
}

describe('session tokens', () => {
  test('a missing, empty, unknown or absurd token is 50008', async () => {
    for (const token of [undefined, 'x', 'not-a-real-token', 'A'.repeat(43), 'A'.repeat(5000)]) {
      const r = await info(token);
      expect(r.status).toBe(200);
      expect(r.body.code, String(token).slice(0, 10)).toBe(50008);
      expect(r.body.data).toBeNull();
    }
    const blank = await api.call('GET', '/app/admin/info', { headers: { 'Admin-Token': '' } });
    expect(blank.body.code).toBe(50008);
    // Every session route says the same.
    for (const [method, path] of [
      ['POST', '/app/admin/logout'],
      ['GET', '/app/admin/sys/getSetting'],
      ['GET', '/app/admin/operators'],
    ])
      expect((await api.call(method, path, { token: 'bogus' })).body.code).toBe(50008);
  });

  test('logout revokes the session: it then answers 50008; other sessions live on', async () => {
    const u = await newUser();
    const second = await api.login(u.account, USER_PASSWORD);
    const out = await api.call('POST', '/app/admin/logout', { token: u.token });
    expect(out.body).toMatchObject({ code: 20000, data: null });
    expect((await info(u.token)).body.code).toBe(50008);
    expect((await api.call('POST', '/app/admin/logout', { token: u.token })).body.code).toBe(50008);
    expect((await info(second)).body.code).toBe(20000);
  });

  test('tokens are stored only as their SHA-256', async () => {
    const u = await newUser();
    const rows = await api.query<Record<string, unknown>>(sql`select * from sessions`);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      for (const value of Object.values(row)) expect(String(value)).not.toContain(u.token);
      expect(String(row.token_hash)).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(rows.some((row) => row.token_hash === '' || row.token_hash === u.token)).toBe(false);
    const hash = await sha256Hex(u.token);
    expect(rows.filter((row) => row.token_hash === hash)).toHaveLength(1);
    // No other table holds it either.
    const dump = JSON.stringify(await api.query(sql`select * from operators`));
    expect(dump).not.toContain(u.token);
  });

  test('passwords are stored as salted pbkdf2, never plain; the default config uses >= 310000 iterations', async () => {
    const u = await newUser();
    const rows = await api.query<{ account: string; password_hash: string }>(
      sql`select account, password_hash from operators`,
    );
    const hashes = new Map(rows.map((r) => [r.account, r.password_hash]));
    for (const [account, hash] of hashes) {
      expect(hash, account).toMatch(/^pbkdf2-sha256\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(hash).not.toContain(USER_PASSWORD);
      expect(hash).not.toContain(ADMIN_PASSWORD);
    }
    const userHash = hashes.get(u.account)!;
    expect(await verifyPassword(USER_PASSWORD, userHash)).toBe(true);
    expect(await verifyPassword('something-else-1', userHash)).toBe(false);
    // Same password, different salt: different hashes.
    const other = await newUser();
    const again = (
      await api.query<{ password_hash: string }>(
        sql`select password_hash from operators where account = ${other.account}`,
      )
    )[0].password_hash;
    expect(again).not.toBe(userHash);
    // The tests run at 1000 iterations; production defaults to OWASP's 310000 or more.
    expect(userHash.split('$')[1]).toBe('1000');
    expect(loadConfig({}).passwordIterations).toBeGreaterThanOrEqual(310_000);
    // The API never shows a hash.
    const listed = await api.call('GET', '/app/admin/operators?pageSize=100', { token: admin });
    expect(JSON.stringify(listed.body)).not.toMatch(/pbkdf2|password/i);
  });
});

describe('idle expiry', () => {
  test(`a session idle for more than SESSION_IDLE_HOURS (${IDLE_HOURS}) answers 50014`, async () => {
    const u = await newUser();
    api.clock.advance(IDLE_HOURS * HOUR); // exactly the limit: still alive
    expect((await info(u.token)).body.code).toBe(20000);
    api.clock.advance(IDLE_HOURS * HOUR + 1);
    const r = await info(u.token);
    expect(r.body.code).toBe(50014);
    expect(r.body.data).toBeNull();
    // Expired stays expired.
    expect((await info(u.token)).body.code).toBe(50014);
    // Without SESSION_IDLE_HOURS, the idle time is 7 days.
    expect(loadConfig({}).sessionIdleMs).toBe(7 * 24 * HOUR);
    admin = await api.login();
  });

  test('activity within the window extends it', async () => {
    const u = await newUser();
    // Use the session every 40 hours for ten days: it never goes idle for 48.
    for (let i = 0; i < 6; i++) {
      api.clock.advance(40 * HOUR);
      expect((await info(u.token)).body.code, `after ${(i + 1) * 40} h`).toBe(20000);
    }
    api.clock.advance(IDLE_HOURS * HOUR + 1);
    expect((await info(u.token)).body.code).toBe(50014);
    admin = await api.login();
  });

  test('last_seen is refreshed at most once a minute', async () => {
    const u = await newUser();
    const lastSeen = async () =>
      new Date(
        (
          await api.query<{ last_seen_at: string | Date }>(
            sql`select last_seen_at from sessions where token_hash = ${await sha256Hex(u.token)}`,
          )
        )[0].last_seen_at,
      ).getTime();
    const created = await lastSeen();
    expect(created).toBe(api.clock.now().getTime());
    api.clock.advance(30_000);
    await info(u.token);
    expect(await lastSeen()).toBe(created); // 30 s: not written
    api.clock.advance(29_000);
    await info(u.token);
    expect(await lastSeen()).toBe(created); // 59 s: not written
    api.clock.advance(2_000);
    await info(u.token);
    const touched = await lastSeen();
    expect(touched).toBe(created + 61_000); // 61 s: written
    api.clock.advance(10_000);
    await info(u.token);
    expect(await lastSeen()).toBe(touched);
  });
});

describe('replacement and account state', () => {
  test('changing my password keeps this session and turns my others into 50012', async () => {
    const u = await newUser();
    const other = await api.login(u.account, USER_PASSWORD);
    const wrong = await api.call('POST', '/app/admin/password', {
      token: u.token,
      body: { oldPassword: 'not-my-password-1', newPassword: 'brand-new-pass-2' },
    });
    expect(wrong.body.code).toBe(40000);
    expect(Object.keys(wrong.body.data.fields)).toEqual(['oldPassword']);
    expect((await info(other)).body.code).toBe(20000); // a failed change ends nothing

    const weak = await api.call('POST', '/app/admin/password', {
      token: u.token,
      body: { oldPassword: USER_PASSWORD, newPassword: 'short' },
    });
    expect(weak.body.code).toBe(40000);
    expect(weak.body.data.fields).toHaveProperty('newPassword');

    const r = await api.call('POST', '/app/admin/password', {
      token: u.token,
      body: { oldPassword: USER_PASSWORD, newPassword: 'brand-new-pass-2' },
    });
    expect(r.body).toMatchObject({ code: 20000, data: null });
    expect((await info(u.token)).body.code).toBe(20000);
    const replaced = await info(other);
    expect(replaced.body.code).toBe(50012);
    expect(replaced.body.data).toBeNull();
    expect(
      (await api.call('POST', '/app/admin/login', { body: { username: u.account, password: USER_PASSWORD } }))
        .body.code,
    ).toBe(40100);
    expect(await api.login(u.account, 'brand-new-pass-2')).toBeTruthy();
  });

  test("an admin's password reset turns every session of the target into 50012", async () => {
    const u = await newUser();
    const other = await api.login(u.account, USER_PASSWORD);
    const r = await api.call('POST', `/app/admin/operators/${u.id}/reset-password`, {
      token: admin,
      body: { password: 'reset-by-admin-3' },
    });
    expect(r.body.code).toBe(20000);
    expect((await info(u.token)).body.code).toBe(50012);
    expect((await info(other)).body.code).toBe(50012);
    expect((await info(admin)).body.code).toBe(20000);
    expect(await api.login(u.account, 'reset-by-admin-3')).toBeTruthy();
    // A weak password, a missing operator.
    const weak = await api.call('POST', `/app/admin/operators/${u.id}/reset-password`, {
      token: admin,
      body: { password: '12345678' },
    });
    expect(weak.body.code).toBe(40000);
    expect(weak.body.data.fields).toHaveProperty('password');
    const missing = await api.call('POST', '/app/admin/operators/99999/reset-password', {
      token: admin,
      body: { password: 'reset-by-admin-3' },
    });
    expect(missing.body.code).toBe(40400);
  });

  test('disabling an operator makes its sessions answer errCode 2001; enabling does not revive them (issue #11)', async () => {
    const u = await newUser();
    expect((await api.call('POST', `/app/admin/operators/${u.id}/disable`, { token: admin })).body.code).toBe(
      20000,
    );
    for (const [method, path] of [
      ['GET', '/app/admin/info'],
      ['GET', '/app/admin/sys/getSetting'],
      ['POST', '/app/admin/logout'],
    ]) {
      const r = await api.call(method, path, { token: u.token });
      expect(r.status).toBe(200);
      expect(r.body.errCode, path).toBe(2001);
      expect(r.body.code).not.toBe(20000);
    }
    expect((await api.call('POST', `/app/admin/operators/${u.id}/enable`, { token: admin })).body.code).toBe(
      20000,
    );
    // The sessions ended with the disabling: the old token is replaced, a new login works.
    expect((await info(u.token)).body.code).toBe(50012);
    const again = await api.call('POST', '/app/admin/login', {
      body: { username: u.account, password: USER_PASSWORD },
    });
    expect((await info(again.body.data.token)).body.code).toBe(20000);
  });

  test('deleting an operator makes its sessions answer errCode 2001', async () => {
    const u = await newUser();
    expect((await api.call('DELETE', `/app/admin/operators/${u.id}`, { token: admin })).body.code).toBe(
      20000,
    );
    const r = await info(u.token);
    expect(r.body.errCode).toBe(2001);
    expect(r.body.code).not.toBe(20000);
    // Batch disable too.
    const v = await newUser();
    const b = await api.call('POST', '/app/admin/operators/batch', {
      token: admin,
      body: { action: 'disable', ids: [v.id] },
    });
    expect(b.body).toMatchObject({ code: 20000, data: { changed: 1 } });
    expect((await info(v.token)).body.errCode).toBe(2001);
  });

  test('a healthy answer carries no errCode', async () => {
    const r = await info(admin);
    expect(r.body.code).toBe(20000);
    expect(r.body).not.toHaveProperty('errCode');
  });
});

describe('info', () => {
  test('my own info, with or without my id', async () => {
    const u = await newUser();
    const expected = { uid: u.id, account: u.account, role: 'user', avatar: '', nickname: u.account };
    expect((await info(u.token)).body).toMatchObject({ code: 20000, data: expected });
    const byId = await info(u.token, `?id=${u.id}`);
    expect(byId.body.data).toEqual({ ...expected, permissions: expect.arrayContaining(['movie.edit']) });
  });

  test("another operator's info: 40300 for a user, allowed for an admin, 40400 when missing", async () => {
    const u = await newUser();
    const v = await newUser();
    const forbidden = await info(u.token, `?id=${v.id}`);
    expect(forbidden.body.code).toBe(40300);
    expect(forbidden.body.data).toBeNull();
    expect((await info(u.token, '?id=1')).body.code).toBe(40300);
    // Even for an id that does not exist, a user learns nothing.
    expect((await info(u.token, '?id=99999')).body.code).toBe(40300);

    const asAdmin = await info(admin, `?id=${v.id}`);
    expect(asAdmin.body).toMatchObject({
      code: 20000,
      data: { uid: v.id, account: v.account, role: 'user' },
    });
    expect((await info(admin, '?id=99999')).body.code).toBe(40400);
    expect((await info(admin, '?id=abc')).body.code).toBe(40000);

    await api.call('DELETE', `/app/admin/operators/${v.id}`, { token: admin });
    expect((await info(admin, `?id=${v.id}`)).body.code).toBe(40400);
  });
});
