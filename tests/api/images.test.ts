import { createDecipheriv } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import {
  DEVELOPMENT_IV,
  DEVELOPMENT_KEY,
  decryptImage,
  IMAGE_MARKER,
  imageCipher,
} from '../../server/modules/images/cipher';
import { fileImageStorage } from '../../server/node/image-storage';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { IMAGES, paddedPng, progressiveJpeg, vp8Webp, vp8xWebp } from './images-fixtures';

/**
 * Issue #3, DESIGN.md §8: uploads are checked by their bytes and size, stored AES-CBC encrypted behind the
 * marker, served as raw bytes at /img/<path>; the key and IV go to logged-in operators only.
 */
const PATH = /^\/upload\/2026\/06\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/;
const MB = 1024 * 1024;

let api: TestApi;
let admin: string;
let user: string;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'imguser' });
  user = await api.login('imguser', USER_PASSWORD);
});
afterAll(() => api.close());

function form(bytes: Uint8Array, name = 'image.bin', type = 'application/octet-stream', field = 'file') {
  const f = new FormData();
  f.append(field, new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  return f;
}

async function upload(
  t: TestApi,
  token: string | undefined,
  body: BodyInit,
  headers: Record<string, string> = {},
) {
  return t.call('POST', '/app/admin/upload/image', { token, raw: body, headers });
}

/** AES-CBC with node:crypto (OpenSSL), not the WebCrypto the server uses: an independent check of the format. */
function opensslDecrypt(stored: Uint8Array, keyHex: string, ivHex: string) {
  const key = Buffer.from(keyHex, 'hex');
  const decipher = createDecipheriv(`aes-${key.length * 8}-cbc`, key, Buffer.from(ivHex, 'hex'));
  return new Uint8Array(Buffer.concat([decipher.update(stored.subarray(3)), decipher.final()]));
}

const ascii = (bytes: Uint8Array, n: number) => String.fromCharCode(...bytes.subarray(0, n));

describe('upload: type by magic bytes', () => {
  test.each([
    ['jpeg', IMAGES.jpeg, 'image/jpeg', 'jpg', 1, 1],
    ['png', IMAGES.png, 'image/png', 'png', 3, 2],
    ['gif', IMAGES.gif, 'image/gif', 'gif', 1, 1],
    ['webp', IMAGES.webp, 'image/webp', 'webp', 1, 1],
  ] as const)('a %s is stored encrypted under a new path and described', async (_, bytes, type, ext, w, h) => {
    // The name and declared type are ignored: the bytes decide.
    const r = await upload(api, admin, form(bytes, 'whatever.txt', 'text/plain'));
    expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
    expect(r.body.data).toEqual({
      path: expect.stringMatching(PATH),
      size: bytes.length,
      type,
      width: w,
      height: h,
    });
    expect(r.body.data.path.endsWith(`.${ext}`)).toBe(true);

    const stored = (await api.images.get(r.body.data.path))!;
    expect(ascii(stored, 3)).toBe(IMAGE_MARKER);
    expect(IMAGE_MARKER).toMatch(/^[\x20-\x7e]{3}$/);
    expect(stored.length).toBe(3 + (Math.floor(bytes.length / 16) + 1) * 16); // PKCS#7 always pads
    expect(opensslDecrypt(stored, DEVELOPMENT_KEY, DEVELOPMENT_IV)).toEqual(bytes);
    expect(await decryptImage(imageCipher(api.config), stored)).toEqual(bytes);
  });

  test('headers are read for the size: progressive JPEG behind APP segments, lossy and extended WebP', async () => {
    for (const [bytes, w, h] of [
      [progressiveJpeg(640, 480), 640, 480],
      [vp8Webp(300, 200), 300, 200],
      [vp8xWebp(4000, 3000), 4000, 3000],
    ] as const) {
      const r = await upload(api, user, form(bytes));
      expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
      expect([r.body.data.width, r.body.data.height]).toEqual([w, h]);
    }
  });

  test('the same file twice gets two paths', async () => {
    const a = await upload(api, admin, form(IMAGES.png));
    const b = await upload(api, admin, form(IMAGES.png));
    expect(a.body.data.path).not.toBe(b.body.data.path);
  });

  test.each([
    [
      'a text file named .png',
      new TextEncoder().encode('hello, I am not a picture\n'),
      'evil.png',
      'image/png',
    ],
    [
      'an SVG',
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'a.svg',
      'image/svg+xml',
    ],
    ['HTML', new TextEncoder().encode('<!doctype html><script>alert(1)</script>'), 'a.jpg', 'image/jpeg'],
    ['a BMP', new Uint8Array([0x42, 0x4d, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 'a.bmp', 'image/bmp'],
    ['a PNG signature without its header', IMAGES.png.subarray(0, 12), 'a.png', 'image/png'],
    ['a GIF signature alone', new TextEncoder().encode('GIF89a'), 'a.gif', 'image/gif'],
    ['a JPEG start without a frame', new Uint8Array([0xff, 0xd8, 0xff, 0xd9, 0, 0]), 'a.jpg', 'image/jpeg'],
    ['a RIFF that is not WebP', new TextEncoder().encode('RIFF\x10\0\0\0WAVEfmt '), 'a.webp', 'image/webp'],
    ['an image of zero width', vp8Webp(0, 10), 'z.webp', 'image/webp'],
    [
      'an already encrypted image',
      new Uint8Array([...new TextEncoder().encode('ZGE'), ...IMAGES.png]),
      'a.png',
      'image/png',
    ],
  ])('%s is refused with 40000 on the field, and nothing is stored', async (_, bytes, name, type) => {
    const before = api.images.paths().length;
    const r = await upload(api, admin, form(bytes, name, type), { 'Accept-Language': 'en-US' });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(40000);
    expect(r.body.data.fields.file).toBe(
      'Only JPEG, PNG, GIF, WebP images are accepted (recognised by their content, whatever the file name)',
    );
    expect(api.images.paths().length).toBe(before);
  });

  test('messages follow the request locale (zh-CN by default)', async () => {
    const r = await upload(api, admin, form(new TextEncoder().encode('text'), 'a.png', 'image/png'));
    expect(r.body.data.fields.file).toBe('只支持 JPEG, PNG, GIF, WebP 图片（按文件内容识别，与文件名无关）');
    expect(r.body.msg).toContain('只支持');
  });

  test('an empty file, no file field, a string in place of the file, no form at all: 40000', async () => {
    const empty = await upload(api, admin, form(new Uint8Array(0)));
    expect([empty.body.code, empty.body.data.fields.file]).toEqual([40000, '文件是空的']);

    const other = await upload(api, admin, form(IMAGES.png, 'a.png', 'image/png', 'picture'));
    expect([other.body.code, other.body.data.fields.file]).toEqual([40000, '请选择要上传的图片文件']);

    const text = new FormData();
    text.append('file', 'iVBORw0KGgo=');
    const str = await upload(api, admin, text);
    expect([str.body.code, str.body.data.fields.file]).toEqual([40000, '请选择要上传的图片文件']);

    for (const [body, type] of [
      ['{"file":"x"}', 'application/json'],
      ['file=x', 'application/x-www-form-urlencoded'],
      ['--zz\r\nbroken', 'multipart/form-data; boundary=zz'],
      ['anything', 'multipart/form-data'],
    ]) {
      const r = await upload(api, admin, body, { 'Content-Type': type });
      expect([r.status, r.body.code], type).toEqual([200, 40000]);
      expect(r.body.data.fields.file, type).toBe('请以 multipart/form-data 表单上传，文件放在 file 字段');
    }
    const none = await api.call('POST', '/app/admin/upload/image', { token: admin });
    expect(none.body.code).toBe(40000);
  });
});

describe('upload: size', () => {
  test('the default limit is 5 MB: exactly 5 MB passes, one byte more is 40000', async () => {
    expect(api.config.imageMaxBytes).toBe(5 * MB);
    const fits = await upload(api, admin, form(paddedPng(5 * MB)));
    expect(fits.body.code).toBe(20000);
    expect(fits.body.data.size).toBe(5 * MB);
    const over = await upload(api, admin, form(paddedPng(5 * MB + 1)), { 'Accept-Language': 'en-US' });
    expect(over.status).toBe(200);
    expect(over.body.code).toBe(40000);
    expect(over.body.data.fields.file).toBe('The image is too large (limit 5 MB)');
  });

  test('IMAGE_MAX_BYTES sets it; a body far over it is cut off while streaming, with the same answer', async () => {
    const small = await startApi({ IMAGE_MAX_BYTES: '2048' });
    try {
      const token = await small.login();
      expect((await upload(small, token, form(paddedPng(2048)))).body.code).toBe(20000);
      for (const size of [2049, 64 * 1024, 3 * MB]) {
        const r = await upload(small, token, form(paddedPng(size)));
        expect([r.status, r.body.code], String(size)).toEqual([200, 40000]);
        expect(r.body.data.fields.file).toBe('图片过大（上限 2 KB）');
      }
      expect(small.images.paths()).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  test('a declared Content-Length over the limit is refused before the body is read', async () => {
    const r = await upload(api, admin, 'x', {
      'Content-Type': 'multipart/form-data; boundary=zz',
      'Content-Length': String(50 * MB),
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.data.fields.file).toBe('图片过大（上限 5 MB）');
  });

  test('the upload has its own limit: an image over BODY_LIMIT_KB passes, while JSON routes keep theirs', async () => {
    const tight = await startApi({ BODY_LIMIT_KB: '1' });
    try {
      const token = await tight.login();
      const r = await upload(tight, token, form(paddedPng(200 * 1024)));
      expect(r.body.code).toBe(20000);
      const json = await tight.call('POST', '/app/admin/sys/updateSetting', {
        token,
        body: { note: 'x'.repeat(4096) },
      });
      expect(json.body.code).toBe(40000);
      expect(json.body.msg).toContain('1 KB');
    } finally {
      await tight.close();
    }
  });
});

describe('sessions and roles', () => {
  test('no session: 50008 for the upload and the cipher, nothing stored', async () => {
    const before = api.images.paths().length;
    expect((await upload(api, undefined, form(IMAGES.png))).body.code).toBe(50008);
    expect((await upload(api, 'not-a-token', form(paddedPng(6 * MB)))).body.code).toBe(50008);
    expect((await api.call('GET', '/app/admin/upload/cipher')).body).toMatchObject({
      code: 50008,
      data: null,
    });
    expect(api.images.paths().length).toBe(before);
  });

  test('any operator (a user too) may upload and read the cipher, which is never cached', async () => {
    expect((await upload(api, user, form(IMAGES.gif))).body.code).toBe(20000);
    const res = await api.app.request('/app/admin/upload/cipher', { headers: { 'Admin-Token': user } });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).data).toEqual({
      algorithm: 'AES-CBC',
      padding: 'PKCS7',
      marker: IMAGE_MARKER,
      key: DEVELOPMENT_KEY,
      iv: DEVELOPMENT_IV,
      maxBytes: 5 * MB,
    });
  });

  test('the key and IV appear in no other answer', async () => {
    const doc = await api.call('GET', '/app/openapi.json');
    const settings = await api.call('GET', '/app/admin/sys/getSetting', { token: user });
    const info = await api.call('GET', '/app/admin/info', { token: user });
    const health = await api.call('GET', '/app/health');
    for (const r of [doc, settings, info, health]) {
      expect(JSON.stringify(r.body)).not.toContain(DEVELOPMENT_KEY);
      expect(JSON.stringify(r.body)).not.toContain(DEVELOPMENT_IV);
    }
  });

  test('the OpenAPI document lists the two routes and not the image host', async () => {
    const doc = (await api.call('GET', '/app/openapi.json')).body;
    expect(doc.paths['/app/admin/upload/image'].post.requestBody.content['multipart/form-data']).toBeTruthy();
    expect(doc.paths['/app/admin/upload/cipher'].get).toBeTruthy();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/img'))).toEqual([]);
  });
});

describe('configured key and IV', () => {
  test.each([
    ['AES-128', '00112233445566778899aabbccddeeff'],
    ['AES-192', '00112233445566778899aabbccddeeff0011223344556677'],
    ['AES-256', '00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff'],
  ])('%s: images are encrypted with IMAGE_KEY/IMAGE_IV, and the cipher route hands them out', async (_, key) => {
    const iv = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
    const t = await startApi({ IMAGE_KEY: key, IMAGE_IV: iv });
    try {
      const token = await t.login();
      const r = await upload(t, token, form(IMAGES.jpeg));
      const stored = (await t.images.get(r.body.data.path))!;
      expect(opensslDecrypt(stored, key, iv)).toEqual(IMAGES.jpeg);
      expect(() => opensslDecrypt(stored, DEVELOPMENT_KEY, DEVELOPMENT_IV)).toThrow();
      const c = await t.call('GET', '/app/admin/upload/cipher', { token });
      expect(c.body.data).toMatchObject({ key: key.toLowerCase(), iv });
    } finally {
      await t.close();
    }
  });

  test('configuration: both or neither, hexadecimal of the right length; the limit is a whole number', () => {
    const key = '00112233445566778899aabbccddeeff';
    expect(() => loadConfig({ IMAGE_KEY: key })).toThrow(ConfigError);
    expect(() => loadConfig({ IMAGE_KEY: key })).toThrow(/IMAGE_IV/);
    expect(() => loadConfig({ IMAGE_IV: key })).toThrow(/IMAGE_KEY/);
    expect(() => loadConfig({ IMAGE_KEY: key.slice(2), IMAGE_IV: key })).toThrow(/IMAGE_KEY/);
    expect(() => loadConfig({ IMAGE_KEY: `${key}zz`.slice(2), IMAGE_IV: key })).toThrow(/IMAGE_KEY/);
    expect(() => loadConfig({ IMAGE_KEY: key, IMAGE_IV: `${key}00` })).toThrow(/IMAGE_IV/);
    expect(() => loadConfig({ IMAGE_MAX_BYTES: '5MB' })).toThrow(/IMAGE_MAX_BYTES/);
    expect(imageCipher(loadConfig({ IMAGE_KEY: key, IMAGE_IV: key }))).toEqual({
      key,
      iv: key,
      development: false,
    });
    expect(imageCipher(loadConfig({})).development).toBe(true);
  });
});

describe('the image host: GET /img/<path>', () => {
  let path: string;
  beforeAll(async () => {
    path = (await upload(api, admin, form(IMAGES.webp))).body.data.path;
  });

  test('the stored bytes as they are, octet-stream, cached for ever, with an ETag; no session needed', async () => {
    const res = await api.app.request(`/img${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body).toEqual(await api.images.get(path));
    expect(ascii(body, 3)).toBe(IMAGE_MARKER);

    const again = await api.app.request(`/img${path}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await api.app.request(`/img${path}`, { headers: { 'If-None-Match': '"abc"' } });
    expect(other.status).toBe(200);
    const head = await api.app.request(`/img${path}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag')]).toEqual([200, etag]);
  });

  test('a path of the right shape with nothing behind it: plain 404, not an envelope', async () => {
    const res = await api.app.request(`/img/upload/2026/06/${'0'.repeat(32)}.png`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Not found');
  });

  test.each([
    '/img/upload/2026/06/../../../../etc/passwd',
    '/img/upload/2026/06/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/img/..%2f..%2f..%2fetc%2fpasswd',
    '/img/%2e%2e%2fapp%2fopenapi.json',
    '/img//etc/passwd',
    '/img/upload/2026/06/..%5c..%5cpackage.json',
    '/img/upload/2026/13/00000000000000000000000000000000.png',
    '/img/upload/2026/06/00000000000000000000000000000000.png%00.txt',
    '/img/upload/2026/06/00000000000000000000000000000000.svg',
    '/img/upload/2026/06/0000000000000000000000000000000G.png',
    '/img/',
    '/img',
  ])('%s: 404, and the store is not even asked', async (url) => {
    // A store that would answer anything: only the host's own path check stands between the URL and the bytes.
    const asked: string[] = [];
    const { createApp } = await import('../../server/app');
    const app = createApp({
      db: api.database.db,
      config: api.config,
      clock: api.clock,
      logger: { info() {}, warn() {}, error() {} },
      clientAddress: () => '10.0.0.9',
      images: {
        put: async () => {},
        delete: async () => {},
        has: async () => true,
        get: async (p) => {
          asked.push(p);
          return new TextEncoder().encode('root:x:0:0');
        },
      },
    });
    const res = await app.request(url);
    expect(res.status, url).toBe(404);
    expect(await res.text()).not.toMatch(/root:|openapi|"name"/);
    expect(asked).toEqual([]);
  });

  test('an upload path with a suffix or a different case is not the image', async () => {
    for (const variant of [
      `${path}/`,
      `${path}.png`,
      path.toUpperCase(),
      path.replace('/upload', '/UPLOAD'),
    ]) {
      expect((await api.app.request(`/img${variant}`)).status, variant).toBe(404);
    }
  });
});

describe('the Node file store (DATA_DIR/images)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'zg-images-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test('put, get, has, delete under the root; missing is null', async () => {
    const store = fileImageStorage(root);
    const p = `/upload/2026/06/${'ab'.repeat(16)}.png`;
    expect(await store.get(p)).toBeNull();
    expect(await store.has(p)).toBe(false);
    await store.put(p, new Uint8Array([1, 2, 3]));
    expect(await store.has(p)).toBe(true);
    expect(await store.get(p)).toEqual(new Uint8Array([1, 2, 3]));
    expect(new Uint8Array(await readFile(join(root, p)))).toEqual(new Uint8Array([1, 2, 3]));
    await store.delete(p);
    expect(await store.get(p)).toBeNull();
    await store.delete(p); // deleting what is gone is fine
  });

  test('refuses any path that is not an upload path', async () => {
    const store = fileImageStorage(root);
    for (const p of ['/../escape.png', '/upload/2026/06/../../../x.png', 'upload/x.png', '/etc/passwd']) {
      await expect(store.put(p, new Uint8Array([1])), p).rejects.toThrow(/not an image path/);
      await expect(store.get(p), p).rejects.toThrow(/not an image path/);
      await expect(store.has(p), p).rejects.toThrow(/not an image path/);
    }
    await expect(stat(join(root, '..', 'escape.png'))).rejects.toThrow();
  });

  test('an app on the file store serves what it stored', async () => {
    const { createApp } = await import('../../server/app');
    const app = createApp({
      db: api.database.db,
      config: api.config,
      clock: api.clock,
      logger: { info() {}, warn() {}, error() {} },
      clientAddress: () => '10.0.0.9',
      images: fileImageStorage(root),
    });
    const res = await app.request('/app/admin/upload/image', {
      method: 'POST',
      headers: { 'Admin-Token': admin },
      body: form(IMAGES.png),
    });
    const { data } = await res.json();
    const file = new Uint8Array(await readFile(join(root, data.path)));
    expect(opensslDecrypt(file, DEVELOPMENT_KEY, DEVELOPMENT_IV)).toEqual(IMAGES.png);
    const served = await app.request(`/img${data.path}`);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(file);

    // Encoded dot segments survive URL parsing and are decoded by the router: they must not reach the disk.
    await writeFile(join(root, '..', `${basename(root)}-secret.txt`), 'TOPSECRET');
    for (const url of [
      `/img/upload/%2e%2e/%2e%2e/..%2f${basename(root)}-secret.txt`,
      `/img/%2e%2e/${basename(root)}-secret.txt`,
      `/img/upload/2026/06/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f${basename(root)}-secret.txt`,
    ]) {
      const res = await app.request(url);
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toContain('TOPSECRET');
    }
    await rm(join(root, '..', `${basename(root)}-secret.txt`));
  });
});
