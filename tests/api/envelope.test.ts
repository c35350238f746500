import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app';
import type { Logger } from '../../server/core/logger';
import type { Db } from '../../server/db/types';
import { startApi, type TestApi } from './harness';

/** DESIGN.md §5: every /app answer is {code, msg, data}; handled failures are HTTP 200 with their code. */
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startApi({ BODY_LIMIT_KB: '2' });
  admin = await api.login();
});
let closed = false;
afterAll(async () => {
  if (!closed) await api.close();
});

function expectEnvelope(r: { status: number; body: any }, code: number, status = 200) {
  expect(r.status).toBe(status);
  expect(r.body).toEqual(expect.objectContaining({ code, msg: expect.any(String) }));
  expect(r.body.msg.length).toBeGreaterThan(0);
  expect(r.body).toHaveProperty('data');
}

const HAN = /[\u4e00-\u9fff]/;

describe('error classes', () => {
  test('unknown /app path: 40400 in the envelope, HTTP 200, for any method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await api.call(method, '/app/no/such/thing', { token: admin });
      expectEnvelope(r, 40400);
      expect(r.body.data).toBeNull();
    }
    const en = await api.call('GET', '/app/nope', { headers: { 'Accept-Language': 'en-US' } });
    expectEnvelope(en, 40400);
    expect(en.body.msg).toContain('/app/nope');
  });

  test('malformed JSON is 40000', async () => {
    for (const raw of ['{', '{"username": "admin",}', 'not json', '']) {
      const r = await api.call('POST', '/app/admin/login', {
        raw,
        headers: { 'Content-Type': 'application/json' },
      });
      expectEnvelope(r, 40000);
    }
    const en = await api.call('POST', '/app/admin/login', {
      raw: '{',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en-US' },
    });
    expect(en.body.msg).toMatch(/JSON/);
  });

  test('a wrong content type on a JSON route is 40000, and nothing is saved', async () => {
    const before = await api.call('GET', '/app/admin/sys/getSetting', { token: admin });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await api.call('POST', '/app/admin/sys/updateSetting', {
        token: admin,
        raw: '{"imgdomain":"https://img.example.com"}',
        headers: { 'Content-Type': type, 'Accept-Language': 'en-US' },
      });
      expectEnvelope(r, 40000);
      expect(r.body.msg).toMatch(/content type/i);
    }
    const login = await api.call('POST', '/app/admin/login', {
      raw: 'username=admin&password=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(login, 40000);
    const after = await api.call('GET', '/app/admin/sys/getSetting', { token: admin });
    expect(after.body.data).toEqual(before.body.data);
  });

  test('an oversized body is 40000 naming the limit (BODY_LIMIT_KB=2)', async () => {
    const r = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { note: 'x'.repeat(3 * 1024) },
      headers: { 'Accept-Language': 'en-US' },
    });
    expectEnvelope(r, 40000);
    expect(r.body.msg).toMatch(/too large/);
    expect(r.body.msg).toContain('2 KB');
    // Without a Content-Length (a stream), the limit still holds.
    const big = new TextEncoder().encode(JSON.stringify({ username: 'a'.repeat(4000), password: 'x' }));
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(big);
        controller.close();
      },
    });
    const res = await api.app.request('/app/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    expect((await res.json()).code).toBe(40000);
    // Just under the limit is fine.
    const ok = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { note: 'x'.repeat(1024) },
    });
    expectEnvelope(ok, 20000);
  });

  test('validation failure: data.fields names the field; msg zh-CN by default, English for en-US', async () => {
    const zh = await api.call('POST', '/app/admin/login', { body: { password: 'x' } });
    expectEnvelope(zh, 40000);
    expect(Object.keys(zh.body.data.fields)).toEqual(['username']);
    expect(zh.body.msg).toMatch(HAN);
    expect(zh.body.msg).toBe('用户名：必填'); // the field by its name, not its key
    expect(zh.body.data.fields.username).toBe('必填');

    const en = await api.call('POST', '/app/admin/login', {
      body: { password: 'x' },
      headers: { 'Accept-Language': 'en-US,en;q=0.9' },
    });
    expectEnvelope(en, 40000);
    expect(en.body.msg).not.toMatch(HAN);
    expect(en.body.data.fields.username).toBe('Required');

    // A wrong type says so (not "required").
    const typed = await api.call('POST', '/app/admin/login', {
      body: { username: 42, password: 'x' },
      headers: { 'Accept-Language': 'en' },
    });
    expectEnvelope(typed, 40000);
    expect(typed.body.data.fields.username).toMatch(/string/);

    // Query parameters too.
    const q = await api.call('GET', '/app/admin/operators?pageSize=7', { token: admin });
    expectEnvelope(q, 40000);
    expect(Object.keys(q.body.data.fields)).toEqual(['pageSize']);
  });

  test('Accept-Language picks the locale; unknown languages fall back to zh-CN', async () => {
    const cases: [string, RegExp][] = [
      ['en-GB', /^[^\u4e00-\u9fff]+$/],
      ['zh-TW,en;q=0.5', HAN],
      ['fr-FR', HAN],
      ['fr-FR, en;q=0.8', /^[^\u4e00-\u9fff]+$/],
    ];
    for (const [lang, re] of cases) {
      const r = await api.call('GET', '/app/admin/info', { headers: { 'Accept-Language': lang } });
      expectEnvelope(r, 50008);
      expect(r.body.msg, lang).toMatch(re);
    }
  });

  test('stale version on operators PUT is 40900 and missing id is 40400', async () => {
    const id = await api.createOperator(admin, { account: 'envelope1' });
    const first = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { nickname: 'first', version: 1 },
    });
    expectEnvelope(first, 20000);
    const stale = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { nickname: 'second', version: 1 },
    });
    expectEnvelope(stale, 40900);
    const missing = await api.call('PUT', '/app/admin/operators/99999', {
      token: admin,
      body: { nickname: 'x', version: 1 },
    });
    expectEnvelope(missing, 40400);
    expectEnvelope(await api.call('GET', '/app/admin/operators/99999', { token: admin }), 40400);
    expectEnvelope(await api.call('DELETE', '/app/admin/operators/99999', { token: admin }), 40400);
  });

  test('input no column can hold is 40000, never a database error', async () => {
    const cases: [string, string, { body?: unknown; raw?: string }][] = [
      ['POST', '/app/admin/login', { body: { username: 'ad\u0000min', password: 'x' } }],
      ['POST', '/app/admin/sys/updateSetting', { body: { note: 'a\u0000b' } }],
      ['POST', '/app/admin/sys/updateSetting', { body: { 'k\u0000': 1 } }],
      ['POST', '/app/admin/sys/updateSetting', { raw: '{"s":"\\ud800"}' }],
      ['POST', '/app/admin/sys/updateSetting', { raw: `{"deep":${'['.repeat(5000)}1${']'.repeat(5000)}}` }],
      [
        'POST',
        '/app/admin/operators',
        { body: { account: 'nul1', password: 'abcd1234', role: 'user', nickname: 'x\u0000' } },
      ],
      ['PUT', '/app/admin/operators/1', { body: { version: 2 ** 53 - 1 } }],
      ['POST', '/app/admin/operators/batch', { body: { action: 'enable', ids: [2 ** 40] } }],
      ['GET', '/app/admin/operators?q=a%00b', {}],
    ];
    for (const [method, path, opts] of cases) {
      const r = await api.call(method, path, {
        token: admin,
        ...opts,
        headers: opts.raw ? { 'Content-Type': 'application/json' } : undefined,
      });
      expect(r.status, `${method} ${path}`).toBe(200);
      expect(r.body.code, `${method} ${path} ${JSON.stringify(r.body)}`).toBe(40000);
    }
    const settings = await api.call('GET', '/app/admin/sys/getSetting', { token: admin });
    expect(settings.body.data).not.toHaveProperty('deep');
    expect(settings.body.data).not.toHaveProperty('s');
  });

  test('prototype-pollution keys are kept as data, never on Object.prototype', async () => {
    const r = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"plain":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    expectEnvelope(r, 20000);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(r.body.data.plain).toBe(1);
  });
});

describe('unexpected exceptions', () => {
  test('HTTP 500, code 50000, a request id, no stack trace; logged with the same id', async () => {
    const logged: Record<string, any>[] = [];
    const logger: Logger = { info() {}, warn() {}, error: (obj) => logged.push(obj) };
    // A database that fails on any use: every route that touches it hits an exception nobody handles.
    const broken = new Proxy(
      {},
      {
        get() {
          throw new Error('database is gone: secret-internal-detail');
        },
      },
    ) as Db;
    const app = createApp({ ...depsOf(api), db: broken, logger });
    for (const [path, init] of [
      ['/app/health', {}],
      ['/app/admin/info', { headers: { 'Admin-Token': 'x' } }],
      [
        '/app/admin/login',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en-US' },
          body: '{"username":"a","password":"b"}',
        },
      ],
    ] as [string, RequestInit][]) {
      const res = await app.request(path, init);
      expect(res.status, path).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const text = await res.text();
      const body = JSON.parse(text);
      expect(body.code).toBe(50000);
      expect(body.data).toBeNull();
      expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.msg).toContain(body.requestId);
      expect(res.headers.get('x-request-id')).toBe(body.requestId);
      expect(text).not.toMatch(/secret-internal-detail|\bat .*\(|stack|\.ts:\d+/);
      const entry = logged.at(-1)!;
      expect(entry.requestId).toBe(body.requestId);
      expect(entry.err.message).toContain('secret-internal-detail');
      expect(entry.err.stack).toBeTruthy();
    }
    expect(logged).toHaveLength(3);
  });
});

describe('outside /app', () => {
  test('non-/app paths are not enveloped', async () => {
    for (const path of ['/', '/login', '/movie/review', '/appx', '/health']) {
      const r = await api.call('GET', path);
      expect(r.status, path).toBe(404);
      expect(typeof r.body === 'object' && r.body !== null && 'code' in r.body, path).toBe(false);
    }
  });

  test('the OpenAPI document is served at /app/openapi.json', async () => {
    const r = await api.call('GET', '/app/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(Object.keys(r.body.paths)).toContain('/app/admin/login');
  });
});

describe('last: the database goes away', () => {
  test('a closed database is an unexpected exception too (50000, HTTP 500)', async () => {
    const token = await api.login();
    await api.close();
    closed = true;
    const r = await api.call('GET', '/app/admin/info', { token });
    expect(r.status).toBe(500);
    expect(r.body.code).toBe(50000);
    expect(typeof r.body.requestId).toBe('string');
    expect(JSON.stringify(r.body)).not.toMatch(/stack|\.ts:\d+/);
  });
});

function depsOf(t: TestApi) {
  return {
    db: t.database.db,
    config: t.config,
    clock: t.clock,
    logger: { info() {}, warn() {}, error() {} },
    clientAddress: () => '10.9.9.9',
    images: t.images,
  };
}
