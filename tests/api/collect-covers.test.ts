import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decryptImage, imageCipher } from '../../server/modules/images/cipher';
import { IMAGE_PATH } from '../../server/modules/images/paths';
import { createGuardedFetch } from '../../server/node/outbound';
import { runToEnd } from './collect-helpers';
import { startApi, type TestApi } from './harness';
import { IMAGES } from './images-fixtures';

/**
 * A 'local' source's covers fetched into our image store: a real PNG stored encrypted at a path of its URL (a rerun
 * fetches nothing and changes nothing); hostile covers (a web page, a body over IMAGE_MAX_BYTES, a slow body, an
 * HTTP error, a redirect to an address the allow-list does not name) keep the site's URL with a note in the log and
 * the run still succeeds; a dry run fetches nothing; an actress's picture too; a cover edited by hand stays.
 * The site is on 127.0.0.1 (allowed) and every fetch goes through the real outbound guard, its time cap shortened.
 */
const MAX_BYTES = 4096;
let api: TestApi;
let admin: string;
let port = 0;
let server: Server;
let movieCol: number;
/** Every path the site was asked for (pages and covers). */
const asked: string[] = [];
/** The video site's items: id, name and cover path on the site (`http://127.0.0.1:<port>` is put in front). */
let videos: { id: number; name: string; pic: string }[] = [];

const guard = createGuardedFetch();
const C = '/app/admin/collect';
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  api.call(method, `${C}${path}`, { token: admin, body, headers }).then((r) => r.body);
const here = (path: string) => `http://127.0.0.1:${port}${path}`;
const coverRequests = () => asked.filter((p) => p.startsWith('/pic/')).length;

function page(kind: 'vod' | 'art' | 'actor') {
  const list =
    kind === 'vod'
      ? videos.map((v) => ({
          vod_id: v.id,
          vod_name: v.name,
          type_id: 1,
          type_name: '电影',
          vod_pic: v.pic && here(v.pic),
          vod_year: '2020',
          vod_play_from: 'm3u8',
          vod_play_url: `第1集$https://cdn.example.com/${v.id}/1.m3u8`,
        }))
      : kind === 'art'
        ? [
            {
              art_id: 7,
              art_name: '采集小说',
              type_id: 1,
              art_pic: here('/pic/other.jpg'),
              art_content: '<p>正文</p>',
            },
          ]
        : [{ actor_id: 9, actor_name: '采集演员', actor_pic: here('/pic/good.png') }];
  return JSON.stringify({ code: 1, page: 1, pagecount: 1, limit: 20, total: list.length, list });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    asked.push(url.pathname);
    const [, kind, name] = url.pathname.split('/');
    if (kind === 'vod' || kind === 'art' || kind === 'actor') {
      res.setHeader('Content-Type', 'application/json');
      return res.end(page(kind));
    }
    if (kind === 'pic' && name === 'good.png') {
      res.setHeader('Content-Type', 'image/png');
      return res.end(IMAGES.png);
    }
    if (kind === 'pic' && name === 'other.jpg') return res.end(IMAGES.jpeg);
    if (kind === 'pic' && name === 'page.jpg') {
      res.setHeader('Content-Type', 'image/jpeg'); // the site's word; the bytes are a web page
      return res.end('<!DOCTYPE html><html><body>防盗链</body></html>');
    }
    if (kind === 'pic' && name === 'huge.jpg') return res.end(Buffer.alloc(MAX_BYTES * 4, 0xff));
    if (kind === 'pic' && name === 'slow.jpg') {
      res.write(IMAGES.jpeg.subarray(0, 4));
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 100);
      res.on('close', () => clearInterval(t));
      return;
    }
    if (kind === 'pic' && name === 'inside.jpg') {
      res.statusCode = 302;
      res.setHeader('Location', `http://127.0.0.2:${port}/pic/good.png`);
      return res.end();
    }
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  api = await startApi(
    { IMAGE_MAX_BYTES: String(MAX_BYTES) },
    { outbound: (url, o) => guard(url, { ...o, timeoutMs: Math.min(o.timeoutMs, 1500) }) },
  );
  admin = await api.login();
  // The site's own address only: 127.0.0.2 (where a cover redirects) stays refused.
  await api.call('POST', '/app/admin/sys/updateSetting', {
    token: admin,
    body: { outboundAllow: ['127.0.0.1'] },
  });
  movieCol = (await api.call('POST', '/app/admin/movie/columns', { token: admin, body: { name: '采集' } }))
    .body.data.id;
});
afterAll(async () => {
  await api?.close();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

async function addSource(name: string, kind: 'vod' | 'art' | 'actor', imageMode: string) {
  const r = await call('POST', '/sources', {
    name,
    kind,
    url: here(`/${kind}/api.php/provide/${kind}/`),
    imageMode,
    trusted: true,
  });
  expect(r.code, JSON.stringify(r)).toBe(20000);
  if (kind === 'vod')
    expect(
      (
        await call('PUT', `/sources/${r.data.id}/bindings`, {
          bindings: [{ remoteTypeId: 1, remoteTypeName: '电影', columnId: movieCol, skipped: false }],
        })
      ).code,
    ).toBe(20000);
  return r.data.id as number;
}

/** A source as the edit form sends it back: its writable fields as read. */
function writable(s: any) {
  const { name, url, apiKey, format, trusted, imageMode, scheduleMinutes, scheduleHours, enabled, version } =
    s;
  return { name, url, apiKey, format, trusted, imageMode, scheduleMinutes, scheduleHours, enabled, version };
}

const run = (sourceId: number, dryRun = false) =>
  runToEnd(api, admin, { sourceId, kind: 'pages', pageFrom: 1, pageTo: 1, dryRun });

const movieOf = async (title: string) =>
  (
    await api.query<{ cover: string; version: number }>(
      sql`select cover, version from movies where title = ${title}`,
    )
  )[0];

async function storedBytes(path: string) {
  const stored = await api.images.get(path);
  expect(stored, path).not.toBeNull();
  return decryptImage(imageCipher(api.config), stored as Uint8Array);
}

describe("a 'local' source's covers", () => {
  test('the mode is a choice of two; anything else names the field', async () => {
    const bad = await call(
      'POST',
      '/sources',
      { name: 'x', url: here('/vod/'), imageMode: 'inline' },
      { 'Accept-Language': 'en-US' },
    );
    expect(bad.code).toBe(40000);
    expect(Object.keys(bad.data.fields)).toEqual(['imageMode']);
    expect(bad.msg).toContain('Covers');
    expect(bad.data.fields.imageMode).toBe(
      'Choose one of: Keep the remote URL (remote), Save into our image store (local)',
    );
    const id = await addSource('模式', 'vod', 'remote');
    const got = (await call('GET', `/sources/${id}`)).data;
    expect(got.imageMode).toBe('remote');
    const changed = await call('PUT', `/sources/${id}`, { ...writable(got), imageMode: 'local' });
    expect(changed.code, JSON.stringify(changed)).toBe(20000);
    expect((await call('GET', `/sources/${id}`)).data.imageMode).toBe('local');
  });

  test('a real PNG is stored encrypted at a path of its URL; a rerun fetches nothing and changes nothing', async () => {
    videos = [
      { id: 1, name: '本地封面一', pic: '/pic/good.png' },
      { id: 2, name: '本地封面二', pic: '/pic/good.png' }, // the same URL: fetched once
      { id: 3, name: '没有封面', pic: '' },
    ];
    const id = await addSource('本地', 'vod', 'local');
    const before = coverRequests();
    const first = await run(id);
    expect(first.status, JSON.stringify(first)).toBe('done');
    expect(first).toMatchObject({ added: 3, failed: 0 });
    expect(coverRequests() - before).toBe(1);
    const one = await movieOf('本地封面一');
    expect(one.cover).toMatch(IMAGE_PATH);
    expect(one.cover).toMatch(/\.png$/);
    expect((await movieOf('本地封面二')).cover).toBe(one.cover);
    expect((await movieOf('没有封面')).cover).toBe('');
    expect(await storedBytes(one.cover)).toEqual(IMAGES.png);
    expect(first.log.every((e: any) => e.cover === undefined)).toBe(true);
    // Served by the image host as it is stored.
    const served = await api.app.request(`/img${one.cover}`);
    expect(served.status).toBe(200);

    const files = api.images.paths().length;
    const again = await run(id);
    expect(again).toMatchObject({ status: 'done', added: 0, updated: 0, skipped: 3 });
    expect(again.log.map((e: any) => e.reason)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(coverRequests() - before).toBe(1);
    expect(api.images.paths().length).toBe(files);
    expect(await movieOf('本地封面一')).toEqual(one);
  });

  test('hostile covers keep the site’s URL with a note each; the run succeeds', async () => {
    videos = [
      { id: 11, name: '网页封面', pic: '/pic/page.jpg' },
      { id: 12, name: '超大封面', pic: '/pic/huge.jpg' },
      { id: 13, name: '慢封面', pic: '/pic/slow.jpg' },
      { id: 14, name: '跳转封面', pic: '/pic/inside.jpg' },
      { id: 15, name: '丢失封面', pic: '/pic/gone.jpg' },
    ];
    const id = await addSource('恶意封面', 'vod', 'local');
    const files = api.images.paths().length;
    const r = await run(id);
    expect(r.status, JSON.stringify(r)).toBe('done');
    expect(r).toMatchObject({ added: 5, failed: 0 });
    for (const v of videos) expect((await movieOf(v.name)).cover).toBe(here(v.pic));
    expect(api.images.paths().length).toBe(files);
    expect(Object.fromEntries(r.log.map((e: any) => [e.name, e.cover]))).toEqual({
      网页封面: { note: 'notImage' },
      超大封面: { note: 'tooLarge', detail: String(MAX_BYTES) },
      慢封面: { note: 'timeout' },
      跳转封面: { note: 'refused', detail: 'address' },
      丢失封面: { note: 'http', detail: '404' },
    });
    expect(r.log.every((e: any) => e.outcome === 'added')).toBe(true);
  });

  test('a cover that failed is fetched by a later run once it can be', async () => {
    videos = [{ id: 21, name: '后来的封面', pic: '/pic/gone.jpg' }];
    const id = await addSource('重试', 'vod', 'local');
    const first = await run(id);
    expect(first.log[0].cover).toEqual({ note: 'http', detail: '404' });
    videos = [{ id: 21, name: '后来的封面', pic: '/pic/other.jpg' }];
    const again = await run(id);
    expect(again).toMatchObject({ status: 'done', updated: 1 });
    const m = await movieOf('后来的封面');
    expect(m.cover).toMatch(/^\/upload\/.*\.jpg$/);
    expect(await storedBytes(m.cover)).toEqual(IMAGES.jpeg);
  });

  test('a dry run says which covers it would fetch and fetches nothing', async () => {
    videos = [{ id: 31, name: '预演封面', pic: '/pic/good.png?dry' }];
    const id = await addSource('预演', 'vod', 'local');
    const before = coverRequests();
    const files = api.images.paths().length;
    const r = await run(id, true);
    expect(r).toMatchObject({ status: 'done', added: 1 });
    expect(r.log[0].cover).toEqual({ note: 'wouldFetch' });
    expect(coverRequests()).toBe(before);
    expect(api.images.paths().length).toBe(files);
    expect(await movieOf('预演封面')).toBeUndefined();
  });

  test('a cover edited by hand stays; a collected remote one becomes ours when the source turns local', async () => {
    videos = [
      { id: 41, name: '手改封面', pic: '/pic/good.png?hand' },
      { id: 42, name: '转本地封面', pic: '/pic/good.png?turn' },
    ];
    const id = await addSource('转换', 'vod', 'remote');
    expect(await run(id)).toMatchObject({ status: 'done', added: 2 });
    expect((await movieOf('转本地封面')).cover).toBe(here('/pic/good.png?turn'));
    await api.query(sql`update movies set cover = 'https://mine.example.com/a.jpg' where title = '手改封面'`);
    const src = (await call('GET', `/sources/${id}`)).data;
    expect((await call('PUT', `/sources/${id}`, { ...writable(src), imageMode: 'local' })).code).toBe(20000);
    const before = coverRequests();
    const r = await run(id);
    expect(r).toMatchObject({ status: 'done', updated: 1, skipped: 1 });
    expect(coverRequests() - before).toBe(1); // the edited one's cover is not fetched
    expect((await movieOf('手改封面')).cover).toBe('https://mine.example.com/a.jpg');
    expect(r.log.find((e: any) => e.name === '手改封面').locked).toEqual(['cover']);
    expect((await movieOf('转本地封面')).cover).toMatch(IMAGE_PATH);
  });

  test('a novel’s cover is ours too', async () => {
    const id = await addSource('本地小说站', 'art', 'local');
    const col = (await api.call('POST', '/app/admin/novel/columns', { token: admin, body: { name: '小说' } }))
      .body.data.id;
    const bound = await call('PUT', `/sources/${id}/bindings`, {
      bindings: [{ remoteTypeId: 1, columnId: col, skipped: false }],
    });
    expect(bound.code, JSON.stringify(bound)).toBe(20000);
    expect(await run(id)).toMatchObject({ status: 'done', added: 1 });
    const [n] = await api.query<{ cover: string }>(sql`select cover from novels where title = '采集小说'`);
    expect(n.cover).toMatch(IMAGE_PATH);
    expect(await storedBytes(n.cover)).toEqual(IMAGES.jpeg);
  });

  test('an actress’s picture is ours too', async () => {
    const id = await addSource('本地演员', 'actor', 'local');
    expect(await run(id)).toMatchObject({ status: 'done', added: 1 });
    const [a] = await api.query<{ avatar: string }>(
      sql`select avatar from actresses where name = '采集演员'`,
    );
    expect(a.avatar).toMatch(IMAGE_PATH);
    expect(await storedBytes(a.avatar)).toEqual(IMAGES.png);
  });
});
