import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestApi } from './harness';

/**
 * A resource site for the collection tests, on 127.0.0.1: the recorded answers of tests/fixtures/collect under
 * `/good/` (JSON) and `/xml/`, and hostile ones: `/html/` (a web page), `/wrong/` (JSON of another shape),
 * `/huge/` (a 50 MB body), `/slow/` (a byte now and then, never done), `/endless/` (pagecount 10^9), `/redirect/`
 * (to 127.0.0.1 itself), `/keyed/` (`/good/` for the right `key=`); an article site `/art/` (`/artxml/`) and a
 * performer site `/actor/` (`/actorxml/`). `requests` records every query it was asked.
 */
export interface FixtureSite {
  port: number;
  requests: URLSearchParams[];
  close: () => Promise<void>;
  /** Pages served by `/many/`: `items` per page, `pages` pages (the bench's provider, smaller). */
  many: { pages: number; items: number };
}

/** The key `/keyed/` wants. */
export const SITE_KEY = 'S3cret-K3y';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/collect', name), 'utf8');

/** One generated page of `/many/`: ids from (pg-1)*items+1, type 1, two lines of two episodes each. */
export function manyPage(pg: number, pages: number, items: number): string {
  const list = Array.from({ length: items }, (_, i) => {
    const id = (pg - 1) * items + i + 1;
    return {
      vod_id: id,
      vod_name: `采集影片${id}`,
      type_id: 1,
      type_name: '电影',
      vod_pic: `https://img.example.com/${id}.jpg`,
      vod_year: '2020',
      vod_content: `<p>第${id}部</p>`,
      vod_play_from: 'm3u8$$$mp4',
      vod_play_url: `第1集$https://cdn-a.example.com/${id}/1.m3u8#第2集$https://cdn-a.example.com/${id}/2.m3u8$$$第1集$https://cdn-b.example.com/${id}/1.mp4#第2集$https://cdn-b.example.com/${id}/2.mp4`,
    };
  });
  return JSON.stringify({
    code: 1,
    msg: 'ok',
    page: pg,
    pagecount: pages,
    limit: items,
    total: pages * items,
    list,
  });
}

export async function startFixtureSite(): Promise<FixtureSite> {
  const requests: URLSearchParams[] = [];
  const many = { pages: 3, items: 20 };
  let port = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    requests.push(q);
    const kind = url.pathname.split('/')[1];
    const ac = q.get('ac');
    const pg = Number(q.get('pg') ?? 1);
    const send = (body: string, type = 'application/json') => {
      res.setHeader('Content-Type', `${type}; charset=utf-8`);
      res.end(body);
    };
    if (kind === 'good')
      return send(fixture(ac === 'list' ? 'list.json' : pg === 2 ? 'page2.json' : 'page1.json'));
    if (kind === 'xml') return send(fixture(ac === 'list' ? 'list.xml' : 'page1.xml'), 'text/xml');
    // an article site and a performer site (provide/art, provide/actor), JSON and XML
    if (kind === 'art') return send(fixture(ac === 'list' ? 'art-list.json' : 'art-page1.json'));
    if (kind === 'artxml') return send(fixture('art-page1.xml'), 'text/xml');
    if (kind === 'actor') return send(fixture('actor-page1.json'));
    if (kind === 'actorxml') return send(fixture('actor-page1.xml'), 'text/xml');
    if (kind === 'html') return send('<!DOCTYPE html><html><body>维护中</body></html>', 'text/html');
    if (kind === 'wrong') return send('{"code":1,"list":{"vod_id":1}}');
    if (kind === 'refuse') return send('{"code":0,"msg":"接口已关闭"}');
    // a site with a key: the right one (SITE_KEY) is served as /good/; a wrong one is refused, the site repeating it
    if (kind === 'keyed')
      return q.get('key') === SITE_KEY
        ? send(fixture(ac === 'list' ? 'list.json' : pg === 2 ? 'page2.json' : 'page1.json'))
        : send(JSON.stringify({ code: 0, msg: `key ${q.get('key')} is not valid` }));
    if (kind === 'endless')
      return send(JSON.stringify({ code: 1, page: 1, pagecount: 1e9, total: 2e10, list: [] }));
    if (kind === 'many') return send(manyPage(pg, many.pages, many.items));
    if (kind === 'redirect') {
      res.statusCode = 302;
      res.setHeader('Location', `http://127.0.0.1:${port}/good/api.php/provide/vod/?${q}`);
      return res.end();
    }
    if (kind === 'huge') {
      res.setHeader('Content-Type', 'application/json');
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 50 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      return pump();
    }
    if (kind === 'slow') {
      res.setHeader('Content-Type', 'application/json');
      res.write('{');
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 100);
      res.on('close', () => clearInterval(t));
      return;
    }
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    many,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Starts a collection run as `token` and polls it until it no longer runs: its last state. */
export async function runToEnd(api: Pick<TestApi, 'call'>, token: string, body: Record<string, unknown>) {
  const started = (await api.call('POST', '/app/admin/collect/runs', { token, body })).body;
  expect(started.code, JSON.stringify(started)).toBe(20000);
  for (let i = 0; i < 400; i++) {
    const r = (await api.call('GET', `/app/admin/collect/runs/${started.data.id}`, { token })).body.data;
    if (r.status !== 'running') return r;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the run did not end');
}
