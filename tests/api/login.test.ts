import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_PASSWORD, startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #2 §3: login, uniform failure, throttling per account (5) and per address (20) over 15 minutes. */
let api: TestApi;
let admin: string;
const MINUTE = 60_000;

beforeAll(async () => {
  api = await startApi();
  api.setAddress('10.1.0.1');
  admin = await api.login();
});
afterAll(() => api.close());

const login = (username: string, password: string, headers?: Record<string, string>) =>
  api.call('POST', '/app/admin/login', { body: { username, password }, headers });

describe('login', () => {
  test('success returns {token, id}; the token opens a session', async () => {
    api.setAddress('10.1.0.2');
    const r = await login('admin', ADMIN_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(20000);
    expect(Object.keys(r.body.data).sort()).toEqual(['id', 'token']);
    expect(r.body.data.id).toBe(1);
    expect(r.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    const info = await api.call('GET', '/app/admin/info', { token: r.body.data.token });
    expect(info.body.data).toMatchObject({ uid: 1, account: 'admin', role: 'admin' });
    // Every login is its own session with its own token.
    const again = await login('admin', ADMIN_PASSWORD);
    expect(again.body.data.token).not.toBe(r.body.data.token);
  });

  test('wrong password and unknown account: both 40100 with the same message, in either locale', async () => {
    api.setAddress('10.1.0.3');
    await api.createOperator(admin, { account: 'known1' });
    for (const headers of [undefined, { 'Accept-Language': 'en-US' }]) {
      const wrong = await login('known1', 'wrong-password-1', headers);
      const unknown = await login('nobody-here', 'wrong-password-1', headers);
      expect(wrong.status).toBe(200);
      expect(wrong.body.code).toBe(40100);
      expect(unknown.body.code).toBe(40100);
      expect(wrong.body.msg).toBe(unknown.body.msg);
      expect(wrong.body.data).toEqual(unknown.body.data);
      expect(Object.keys(wrong.body).sort()).toEqual(Object.keys(unknown.body).sort());
    }
    expect((await login('nobody-here', 'x', { 'Accept-Language': 'en-US' })).body.msg).toMatch(
      /user name or password/i,
    );
  });

  test('a disabled account cannot log in, an enabled one again can', async () => {
    api.setAddress('10.1.0.4');
    const id = await api.createOperator(admin, { account: 'disabled1' });
    expect((await api.call('POST', `/app/admin/operators/${id}/disable`, { token: admin })).body.code).toBe(
      20000,
    );
    const r = await login('disabled1', USER_PASSWORD);
    expect(r.body.code).toBe(40100);
    expect(r.body.data).toBeNull();
    expect(JSON.stringify(r.body)).not.toContain('token');
    expect((await api.call('POST', `/app/admin/operators/${id}/enable`, { token: admin })).body.code).toBe(
      20000,
    );
    expect((await login('disabled1', USER_PASSWORD)).body.code).toBe(20000);
  });

  test('a deleted account cannot log in', async () => {
    api.setAddress('10.1.0.5');
    const id = await api.createOperator(admin, { account: 'deleted1' });
    expect((await api.call('DELETE', `/app/admin/operators/${id}`, { token: admin })).body.code).toBe(20000);
    expect((await login('deleted1', USER_PASSWORD)).body.code).toBe(40100);
  });

  test('login records the last login time', async () => {
    api.setAddress('10.1.0.6');
    const id = await api.createOperator(admin, { account: 'lastlogin1' });
    api.clock.advance(MINUTE);
    const when = api.clock.now().toISOString();
    await login('lastlogin1', USER_PASSWORD);
    const r = await api.call('GET', `/app/admin/operators/${id}`, { token: admin });
    expect(r.body.data.lastLoginAt).toBe(when);
  });
});

describe('throttling', () => {
  test('5 failures for one account from one address -> 42900 there even with the right password, until 15 minutes pass; another address still logs in', async () => {
    await api.createOperator(admin, { account: 'victim1' });
    api.setAddress('10.2.0.1');
    for (let i = 0; i < 5; i++) {
      const r = await login('victim1', `wrong-${i}-pass`);
      expect(r.body.code, `failure ${i + 1}`).toBe(40100);
    }
    // The operator, from a known address, is not locked out by someone guessing elsewhere (OWASP: no lockout).
    api.setAddress('10.2.1.1');
    const token = (await login('victim1', USER_PASSWORD)).body.data.token;
    expect(token).toEqual(expect.any(String));
    api.setAddress('10.2.0.1');
    const blocked = await login('victim1', USER_PASSWORD, { 'Accept-Language': 'en-US' });
    expect(blocked.status).toBe(200);
    expect(blocked.body.code).toBe(42900);
    expect(blocked.body.msg).toMatch(/in 15 minutes/);
    expect(blocked.body).not.toHaveProperty('data.token');
    // Other accounts from the same address are unaffected.
    expect((await login('admin', ADMIN_PASSWORD)).body.code).toBe(20000);

    api.clock.advance(14 * MINUTE);
    const still = await login('victim1', USER_PASSWORD, { 'Accept-Language': 'en-US' });
    expect(still.body.code).toBe(42900);
    expect(still.body.msg).toMatch(/in 1 minutes/);
    api.clock.advance(MINUTE + 1);
    expect((await login('victim1', USER_PASSWORD)).body.code).toBe(20000);
  });

  test('blocked attempts do not extend the window; failures are counted in the database', async () => {
    await api.createOperator(admin, { account: 'victim2' });
    api.setAddress('10.3.0.1');
    for (let i = 0; i < 5; i++) await login('victim2', 'wrong-pass-9');
    const rows = await api.query<{ n: number | string }>(
      sql`select count(*) as n from login_failures where account = 'victim2'`,
    );
    expect(Number(rows[0].n)).toBe(5);
    for (let i = 0; i < 5; i++) {
      api.clock.advance(2 * MINUTE);
      expect((await login('victim2', 'wrong-pass-9')).body.code).toBe(42900);
    }
    api.clock.advance(5 * MINUTE + 1);
    expect((await login('victim2', USER_PASSWORD)).body.code).toBe(20000);
  });

  test('20 failures from one address over different accounts -> 42900 for that address only', async () => {
    await api.createOperator(admin, { account: 'bystander1' });
    api.setAddress('10.4.0.66');
    for (let i = 0; i < 20; i++) {
      const r = await login(`spray-${i}`, 'wrong-pass-1');
      expect(r.body.code, `failure ${i + 1}`).toBe(40100);
    }
    // The address is blocked, for every account, right password or not.
    expect((await login('bystander1', USER_PASSWORD)).body.code).toBe(42900);
    expect((await login('admin', ADMIN_PASSWORD)).body.code).toBe(42900);
    expect((await login('spray-99', 'x')).body.code).toBe(42900);
    // Another address is not.
    api.setAddress('10.4.0.67');
    expect((await login('bystander1', USER_PASSWORD)).body.code).toBe(20000);
    // Until the window passes.
    api.clock.advance(15 * MINUTE + 1);
    api.setAddress('10.4.0.66');
    expect((await login('bystander1', USER_PASSWORD)).body.code).toBe(20000);
  });

  test('the window slides: old failures stop counting one by one', async () => {
    await api.createOperator(admin, { account: 'victim3' });
    api.setAddress('10.5.0.1');
    for (let i = 0; i < 5; i++) {
      await login('victim3', 'wrong-pass-1');
      api.clock.advance(MINUTE);
    }
    // Failures at t=0..4 min; now t=5 min. At t=15 min + ε the first leaves the window: 4 remain.
    expect((await login('victim3', USER_PASSWORD)).body.code).toBe(42900);
    api.clock.advance(10 * MINUTE + 1);
    expect((await login('victim3', 'wrong-pass-1')).body.code).toBe(40100); // back to 5
    expect((await login('victim3', USER_PASSWORD)).body.code).toBe(42900);
  });

  test("a success clears the account's counter", async () => {
    await api.createOperator(admin, { account: 'victim4' });
    api.setAddress('10.6.0.1');
    for (let i = 0; i < 4; i++) expect((await login('victim4', 'wrong-pass-1')).body.code).toBe(40100);
    expect((await login('victim4', USER_PASSWORD)).body.code).toBe(20000);
    // Had the counter not been cleared, the next failure would be the fifth and then the account would be blocked.
    for (let i = 0; i < 4; i++) expect((await login('victim4', 'wrong-pass-1')).body.code).toBe(40100);
    expect((await login('victim4', USER_PASSWORD)).body.code).toBe(20000);
    const rows = await api.query<{ n: number | string }>(
      sql`select count(*) as n from login_failures where account = 'victim4'`,
    );
    expect(Number(rows[0].n)).toBe(0);
  });

  test('40 parallel logins for one account from one address (39 wrong, 1 right): at most 5 answers are not 42900', async () => {
    await api.createOperator(admin, { account: 'racer1' });
    api.setAddress('10.8.0.1');
    const attempts = Array.from({ length: 40 }, (_, i) => (i === 20 ? USER_PASSWORD : `wrong-${i}-pass`));
    const answers = await Promise.all(attempts.map((p) => login('racer1', p)));
    const codes = answers.map((r) => r.body.code);
    expect(codes.filter((c) => c !== 42900).length).toBeLessThanOrEqual(5);
    expect(codes.every((c) => [40100, 42900, 20000].includes(c))).toBe(true);
  });

  test('40 parallel logins over many accounts from one address: at most 20 answers are not 42900', async () => {
    api.setAddress('10.8.0.2');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`parallel-spray-${i}`, 'wrong-pass-1')),
    );
    expect(answers.filter((r) => r.body.code !== 42900).length).toBeLessThanOrEqual(20);
  });

  test('the account-wide counter only slows down, growing with the failures; it never locks out', async () => {
    const { accountDelayMs, THROTTLE } = await import('../../server/modules/operators/throttle');
    expect(accountDelayMs(0)).toBe(0);
    expect(accountDelayMs(THROTTLE.accountDelayFrom - 1)).toBe(0);
    const delays = [10, 15, 20, 25, 30, 1000].map(accountDelayMs);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    expect(delays[0]).toBeGreaterThan(0);
    expect(delays.at(-1)).toBe(THROTTLE.maxDelayMs);
    // 8 addresses x 1 failure each: the account is not blocked for a ninth address.
    await api.createOperator(admin, { account: 'spread1' });
    for (let i = 0; i < 8; i++) {
      api.setAddress(`10.9.0.${i}`);
      expect((await login('spread1', 'wrong-pass-1')).body.code).toBe(40100);
    }
    api.setAddress('10.9.1.1');
    expect((await login('spread1', USER_PASSWORD)).body.code).toBe(20000);
  });

  test('wrong old passwords on POST /app/admin/password count like failed logins', async () => {
    await api.createOperator(admin, { account: 'changer1' });
    api.setAddress('10.10.0.1');
    const token = (await login('changer1', USER_PASSWORD)).body.data.token;
    const change = (oldPassword: string) =>
      api.call('POST', '/app/admin/password', {
        token,
        body: { oldPassword, newPassword: 'brand-new-pass-2' },
      });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}-pass`)).body.code).toBe(40000);
    const blocked = await change(USER_PASSWORD);
    expect(blocked.body.code).toBe(42900);
    api.clock.advance(15 * MINUTE + 1);
    expect((await change(USER_PASSWORD)).body.code).toBe(20000);
  });

  test('a disabled account answers the right password as it answers a wrong one', async () => {
    const id = await api.createOperator(admin, { account: 'quiet1' });
    api.setAddress('10.11.0.1');
    const before = (await login('quiet1', USER_PASSWORD)).body.data.token;
    expect((await api.call('POST', `/app/admin/operators/${id}/disable`, { token: admin })).body.code).toBe(
      20000,
    );
    const right = await login('quiet1', USER_PASSWORD);
    const wrong = await login('quiet1', 'wrong-pass-1');
    expect(right.body).toEqual(wrong.body);
    expect(right.body.code).toBe(40100);
    // Disabling ended the session: enabling again does not revive the old token.
    expect((await api.call('POST', `/app/admin/operators/${id}/enable`, { token: admin })).body.code).toBe(
      20000,
    );
    const old = await api.call('GET', '/app/admin/info', { token: before });
    expect(old.body.code).toBe(50012);
  });

  test('the counters are shared by every instance: a second app on the same database sees them', async () => {
    const { createApp } = await import('../../server/app');
    await api.createOperator(admin, { account: 'victim5' });
    const other = createApp({
      db: api.database.db,
      config: api.config,
      clock: api.clock,
      logger: { info() {}, warn() {}, error() {} },
      clientAddress: () => '10.7.0.2',
      images: api.images,
    });
    api.setAddress('10.7.0.2');
    for (let i = 0; i < 5; i++) await login('victim5', 'wrong-pass-1');
    const res = await other.request('/app/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'victim5', password: USER_PASSWORD }),
    });
    expect((await res.json()).code).toBe(42900);
  });
});
