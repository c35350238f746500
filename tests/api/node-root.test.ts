import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { silentLogger } from '../../server/core/logger';
import { createRoot } from '../../server/node/root';
import { startApi, type TestApi } from './harness';
import { IMAGES } from './images-fixtures';

/** The Node server's outer app (server/node/root.ts): headers and answers around the API. */
let api: TestApi;
let admin: string;
let root: ReturnType<typeof createRoot>;
const dir = mkdtempSync(join(tmpdir(), 'zhanggui-root-'));

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>zg</title>');
  root = createRoot(api.app, dir, silentLogger);
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a malformed %-encoding outside /app is 400, not 500', async () => {
  for (const path of ['/%ff', '/movie/%E0%A4%A', '/assets/%c0%af.js']) {
    const res = await root.request(path);
    expect(res.status, path).toBe(400);
  }
  expect((await root.request('/movie/review')).status).toBe(200);
});

test('/img has one cross-origin policy: ACAO * with CORP cross-origin; pages stay same-origin', async () => {
  const form = new FormData();
  form.append('file', new Blob([IMAGES.png as BlobPart], { type: 'image/png' }), 'a.png');
  const up = await api.app.request('/app/admin/upload/image', {
    method: 'POST',
    headers: { 'Admin-Token': admin },
    body: form,
  });
  const { data } = await up.json();
  const img = await root.request(`/img${data.path}`);
  expect(img.status).toBe(200);
  expect(img.headers.get('access-control-allow-origin')).toBe('*');
  expect(img.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  const page = await root.request('/');
  expect(page.headers.get('cross-origin-resource-policy')).toBe('same-origin');
});

test('authenticated admin JSON is Cache-Control: no-store; the public site keeps its own caching', async () => {
  const info = await root.request('/app/admin/info', { headers: { 'Admin-Token': admin } });
  expect(info.headers.get('cache-control')).toBe('no-store');
  const list = await root.request('/app/admin/operators?page=1&limit=5', {
    headers: { 'Admin-Token': admin },
  });
  expect(list.headers.get('cache-control')).toBe('no-store');
  const login = await root.request('/app/admin/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'wrong-password-0' }),
  });
  expect(login.headers.get('cache-control')).toBe('no-store');
});

test('index.html is read once: the first page and every history route answer it from memory', async () => {
  const own = mkdtempSync(join(tmpdir(), 'zhanggui-root-'));
  try {
    const page = createRoot(api.app, own, silentLogger);
    expect((await page.request('/')).status).toBe(503); // not built yet: asked again next time
    writeFileSync(join(own, 'index.html'), '<!doctype html><title>first</title>');
    expect(await (await page.request('/')).text()).toContain('first');
    writeFileSync(join(own, 'index.html'), '<!doctype html><title>second</title>');
    expect(await (await page.request('/movie/review')).text()).toContain('first');
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

test('answers are compressed, but not the event beacons: a few bytes each, many a second', async () => {
  const doc = await root.request('/app/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(doc.headers.get('content-encoding')).toBe('gzip');
  const beacon = await root.request('/app/site/events', {
    method: 'POST',
    headers: { 'Accept-Encoding': 'gzip', 'Content-Type': 'application/json' },
    body: JSON.stringify({ events: [] }),
  });
  expect(beacon.headers.get('content-encoding')).toBeNull();
  expect((await beacon.json()).code).toBeTypeOf('number');
});

test('MacCMS’s provide path reaches the API, not the pages’ fallback (closed by default: a JSON 404)', async () => {
  for (const path of ['/api.php/provide/vod/?ac=list', '/api.php/provide/vod?ac=detail&at=xml']) {
    const res = await root.request(path);
    expect(res.status, path).toBe(404);
    expect(res.headers.get('content-type'), path).toContain('application/json');
    expect((await res.json()).code, path).toBe(0);
  }
});
