import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startApi, type TestApi } from './harness';
import { createNovel } from './novels-helpers';

/**
 * Bodies are refused before they are read (issue #11): authentication first, then the limit from Content-Length,
 * then the limit while streaming, for every route including the upload and the import (their own, larger limits).
 * A body stream here counts what the server pulled from it.
 */
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startApi({ BODY_LIMIT_KB: '4', IMAGE_MAX_BYTES: '65536' });
  admin = await api.login();
});
afterAll(() => api.close());

/** A body of `total` bytes in 1 KB chunks that records how many bytes the server pulled. */
function countingBody(total: number, byte = 0x20) {
  const chunk = new Uint8Array(1024).fill(byte);
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= total) return controller.close();
      const n = Math.min(chunk.length, total - seen.pulled);
      seen.pulled += n;
      controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
  return { stream, seen };
}

async function send(
  path: string,
  opts: { body: BodyInit; headers?: Record<string, string>; token?: string },
): Promise<{ res: Response; body: any }> {
  const res = await api.app.request(path, {
    method: 'POST',
    headers: {
      'Accept-Language': 'en-US',
      ...(opts.token ? { 'Admin-Token': opts.token } : {}),
      ...opts.headers,
    },
    body: opts.body,
    // @ts-expect-error Node's fetch needs this for a stream body
    duplex: 'half',
  });
  return { res, body: await res.json() };
}

const MB = 1024 * 1024;
const routes = [
  ['a JSON route', '/app/admin/sys/updateSetting', 'application/json'],
  ['the image upload', '/app/admin/upload/image', 'multipart/form-data; boundary=x'],
  ['the image upload, sent as JSON', '/app/admin/upload/image', 'application/json'],
  ['the novel import', '/app/admin/novel/novels/1/import', 'multipart/form-data; boundary=x'],
  ['the novel import preview', '/app/admin/novel/novels/1/import/preview', 'multipart/form-data; boundary=x'],
] as const;

describe('without a token', () => {
  test.each(routes)('%s answers 50008 without reading the body', async (_, path, type) => {
    const { stream, seen } = countingBody(64 * MB);
    const { res, body } = await send(path, { body: stream, headers: { 'Content-Type': type } });
    expect(body.code).toBe(50008);
    // A stream may be asked for a chunk or two ahead; never for the body.
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(res.headers.get('connection')).toBe('close');
  });
});

describe('with a token', () => {
  let novel = 0;
  const read = () =>
    [
      ['a JSON route', '/app/admin/sys/updateSetting', 'application/json'],
      ['the image upload', '/app/admin/upload/image', 'multipart/form-data; boundary=x'],
      ['the novel import', `/app/admin/novel/novels/${novel}/import`, 'multipart/form-data; boundary=x'],
      [
        'the novel import preview',
        `/app/admin/novel/novels/${novel}/import/preview`,
        'multipart/form-data; boundary=x',
      ],
    ] as const;
  beforeAll(async () => {
    novel = (await createNovel(api, admin, { title: '大文件' })).id;
  });

  test('a body the route refuses from its headers is never read, and the connection closes', async () => {
    const { stream, seen } = countingBody(64 * MB);
    const { res, body } = await send('/app/admin/upload/image', {
      token: admin,
      body: stream,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(body.code).toBe(40000);
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(res.headers.get('connection')).toBe('close');
  });

  test.each([
    0, 1, 2, 3,
  ])('route %i refuses a streamed body over its limit as soon as it passes it', async (i) => {
    const [, path, type] = read()[i];
    // 64 MB is over every limit (the app's 4 KB, the image's 64 KB, the import's 32 MB).
    const { stream, seen } = countingBody(64 * MB);
    const { res, body } = await send(path, { token: admin, body: stream, headers: { 'Content-Type': type } });
    expect(body.code).toBe(40000);
    expect(body.msg).toMatch(/too large/);
    expect(seen.pulled).toBeLessThan(40 * MB);
    // The unread rest must not be taken for the next request on this connection.
    expect(res.headers.get('connection')).toBe('close');
  });

  test.each([
    0, 1, 2, 3,
  ])('route %i refuses a Content-Length over its limit before reading anything', async (i) => {
    const [, path, type] = read()[i];
    const { stream, seen } = countingBody(64 * MB);
    const { res, body } = await send(path, {
      token: admin,
      body: stream,
      headers: { 'Content-Type': type, 'Content-Length': String(64 * MB) },
    });
    expect(body.code).toBe(40000);
    expect(body.msg).toMatch(/too large/);
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(res.headers.get('connection')).toBe('close');
  });

  test('the app-wide limit says its size; a body within it is read and answered normally', async () => {
    const big = await send('/app/admin/sys/updateSetting', {
      token: admin,
      body: JSON.stringify({ note: 'x'.repeat(5000) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.body).toMatchObject({ code: 40000, msg: 'The request body is too large (limit 4 KB)' });
    const small = await send('/app/admin/login', {
      body: JSON.stringify({ username: 'admin', password: 'wrong-password-1' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(small.body.code).toBe(40100);
    expect(small.res.headers.get('connection')).toBeNull();
  });

  test('a JSON body is parsed once: the route gets the value that was checked', async () => {
    const text = JSON.stringify({ username: 'admin', password: 'wrong-password-2' });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const r = await send('/app/admin/login', {
        body: text,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(r.body.code).toBe(40100); // the route read the body's fields
      expect(parse.mock.calls.filter(([t]) => t === text)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
    // Text that is not JSON still gets the validator's own answer.
    const bad = await send('/app/admin/login', {
      body: '{"username":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.body.code).toBe(40000);
  });

  test('invalid UTF-8 in a JSON body is refused with 40000, not stored as U+FFFD', async () => {
    const before = await api.call('GET', '/app/admin/sys/getSetting', { token: admin });
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"title":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]);
    const r = await send('/app/admin/movie/movies', {
      token: admin,
      body: bytes,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.body).toMatchObject({ code: 40000, msg: 'The request body is not valid UTF-8 text' });
    const rows = await api.query<{ n: number }>(
      (await import('drizzle-orm'))
        .sql`select count(*)::int as n from movies where title like '%' || chr(65533) || '%'`,
    );
    expect(rows[0].n).toBe(0);
    const after = await api.call('GET', '/app/admin/sys/getSetting', { token: admin });
    expect(after.body.data).toEqual(before.body.data);
  });
});
