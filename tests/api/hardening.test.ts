import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serializeError } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { forwardedClient } from '../../server/core/client-address';
import { isDatabaseUnavailable } from '../../server/core/db-errors';
import { seed } from '../../server/seed';
import { startApi, type TestApi } from './harness';

/** Issue #11's smaller items: configuration, logs, proxies, the seeded operators. */
describe('configuration', () => {
  test('a rejected secret is named, never echoed', () => {
    for (const [name, value] of [
      ['ADMIN_PASSWORD', 'short1'],
      ['IMAGE_KEY', 'not-hex-secret'],
      ['DATABASE_URL', 'mysql://root:hunter2@db/x'],
    ]) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain(value);
    }
    // A value that is no secret is still shown, to help.
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT="eighty"');
  });

  test('TRUST_PROXY: true is one proxy, a number is that many; anything else is refused', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(ConfigError);
  });
});

describe('X-Forwarded-For behind trusted proxies', () => {
  test('the rightmost entry the trusted proxies wrote, never what the client put on the left', () => {
    expect(forwardedClient('203.0.113.9', 1)).toBe('203.0.113.9');
    // The client sent "1.1.1.1"; the one proxy appended the address it saw.
    expect(forwardedClient('1.1.1.1, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(forwardedClient('6.6.6.6, 1.1.1.1, 203.0.113.9', 1)).toBe('203.0.113.9');
    // Two proxies: the outer appended the client, the inner appended the outer.
    expect(forwardedClient('1.1.1.1, 203.0.113.9, 10.0.0.2', 2)).toBe('203.0.113.9');
    expect(forwardedClient('203.0.113.9', 2)).toBe('203.0.113.9');
    expect(forwardedClient('1.1.1.1', 0)).toBeUndefined();
    expect(forwardedClient(undefined, 1)).toBeUndefined();
    expect(forwardedClient(' , ', 1)).toBeUndefined();
  });
});

describe('error logs', () => {
  test('a failed query is logged without its parameters', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
    });
    const err = Object.assign(
      new Error(
        'Failed query: select * from sessions where token_hash = $1\nparams: 9f8e7d6c5b4a-secret-hash',
      ),
      { query: 'select * from sessions where token_hash = $1', params: ['9f8e7d6c5b4a-secret-hash'], cause },
    );
    const logged = JSON.stringify(serializeError(err));
    expect(logged).not.toContain('9f8e7d6c5b4a-secret-hash');
    expect(logged).toContain('token_hash = $1');
    expect(logged).toContain('23505');
  });

  test('a lost connection is "database unavailable", a wrong value is not', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '57P01' }) }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});

describe('seeded operators', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  test('a real install (SEED) gives each sample operator its own random password and salt, shown once', async () => {
    let creds: { account: string; password: string }[] = [];
    const r = await seed(api.database.db, api.config, {
      seed: 1,
      movies: 2,
      actresses: 1,
      modules: [], // the operators are what is tested: no module's sample data (its events take seconds)
      onPasswords: (given) => {
        creds = given;
      },
    });
    expect(r.seeded).toBe(true);
    expect(creds.length).toBeGreaterThan(1);
    expect(new Set(creds.map((c) => c.password)).size).toBe(creds.length);
    const rows = await api.query<{ account: string; password_hash: string; disabled: boolean }>(
      sql`select account, password_hash, disabled from operators where account <> 'admin'`,
    );
    expect(new Set(rows.map((r) => r.password_hash)).size).toBe(rows.length);
    const salts = rows.map((r) => r.password_hash.split('$').slice(0, -1).join('$'));
    expect(new Set(salts).size).toBe(rows.length);
    const first = creds[0];
    for (const known of ['operator123', 'demo1234'])
      expect(
        (await api.call('POST', '/app/admin/login', { body: { username: first.account, password: known } }))
          .body.code,
      ).toBe(40100);
    api.setAddress('10.50.0.1');
    expect(
      (
        await api.call('POST', '/app/admin/login', {
          body: { username: first.account, password: first.password },
        })
      ).body.code,
    ).toBe(20000);
  });

  test('demo mode keeps its documented password for the sample operators, each with its own salt', async () => {
    const other = await startApi();
    try {
      let shown = false;
      await seed(other.database.db, other.config, {
        seed: 1,
        movies: 2,
        actresses: 1,
        modules: [],
        samplePassword: 'demo1234',
        onPasswords: () => {
          shown = true;
        },
      });
      expect(shown).toBe(false);
      const rows = await other.query<{ account: string; password_hash: string }>(
        sql`select account, password_hash from operators where account <> 'admin' and not disabled`,
      );
      expect(new Set(rows.map((r) => r.password_hash)).size).toBe(rows.length);
      const login = await other.call('POST', '/app/admin/login', {
        body: { username: rows[0].account, password: 'demo1234' },
      });
      expect(login.body.code).toBe(20000);
    } finally {
      await other.close();
    }
  });
});

describe('image fields', () => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startApi();
    admin = await api.login();
  });
  afterAll(() => api.close());

  const HOSTILE = [
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    '//evil.example/x.png',
    'x.png',
  ];
  const GOOD = ['', '/upload/2026/05/0123456789abcdef0123456789abcdef.jpg', 'https://img.example/c.png'];

  test.each([
    ['movie cover', 'POST', '/app/admin/movie/movies', 'cover', { title: '封面' }],
    ['novel cover', 'POST', '/app/admin/novel/novels', 'cover', { title: '封面' }],
    ['actress avatar', 'POST', '/app/admin/actresses', 'avatar', { name: '头像' }],
    ['operator avatar', 'POST', '/app/admin/operators', 'avatar', { password: 'user-pass-1', role: 'user' }],
    [
      'promotion app icon',
      'POST',
      '/app/admin/setting/promotion-apps',
      'icon',
      { name: '应用', url: 'https://uc.example/download', os: 'android', platforms: [2] },
    ],
    ['settings logo', 'POST', '/app/admin/sys/updateSetting', 'logo', {}],
  ] as const)('%s: one rule, an uploaded image path or an http(s) URL', async (_, method, path, field, base) => {
    let n = 0;
    const send = (value: string) =>
      api.call(method, path, {
        token: admin,
        headers: { 'Accept-Language': 'en-US' },
        body: {
          ...base,
          ...(field === 'avatar' && path.includes('operators') ? { account: `img${++n}x` } : {}),
          [field]: value,
        },
      });
    for (const bad of HOSTILE) {
      const r = await send(bad);
      expect(r.body.code, bad).toBe(40000);
      expect(r.body.data.fields[field], bad).toBe('Should be an uploaded image or an http(s) address');
    }
    for (const good of GOOD) expect((await send(good)).body.code, good).toBe(20000);
  });
});

describe('system settings', () => {
  let api: TestApi;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    api = await startApi();
    admin = await api.login();
    await api.createOperator(admin, { account: 'reader1' });
    user = await api.login('reader1', 'user-pass-1');
  });
  afterAll(() => api.close());

  test("a user reads another tenant's public fields only; an admin reads all", async () => {
    const save = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { tenant: 3, siteName: '三号站', secretNote: 'internal only' },
    });
    expect(save.body.code).toBe(20000);
    const asUser = await api.call('GET', '/app/admin/sys/getSetting?tenant=3', { token: user });
    expect(asUser.body.code).toBe(20000);
    expect(asUser.body.data.siteName).toBe('三号站');
    expect(asUser.body.data).not.toHaveProperty('secretNote');
    const asAdmin = await api.call('GET', '/app/admin/sys/getSetting?tenant=3', { token: admin });
    expect(asAdmin.body.data.secretNote).toBe('internal only');
  });

  test('the settings document is capped: a 900 KB junk field is refused and nothing is kept', async () => {
    const tight = await startApi({ BODY_LIMIT_KB: '2048' });
    try {
      const token = await tight.login();
      const r = await tight.call('POST', '/app/admin/sys/updateSetting', {
        token,
        headers: { 'Accept-Language': 'en-US' },
        body: { junk: 'x'.repeat(900 * 1024) },
      });
      expect(r.body.code).toBe(40000);
      expect(r.body.msg).toContain('64 KB');
      const after = await tight.call('GET', '/app/admin/sys/getSetting', { token });
      expect(after.body.data).not.toHaveProperty('junk');
      const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
      expect(
        (await tight.call('POST', '/app/admin/sys/updateSetting', { token, body: many })).body.code,
      ).toBe(40000);
    } finally {
      await tight.close();
    }
  });
});
