import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { silentLogger } from '../../server/core/logger';
import { createRoot } from '../../server/node/root';
import { SERVE_OPTIONS } from '../../server/node/shed';
import { startApi, type TestApi } from './harness';
import { siteDoor } from './site-door';
import { event } from './stats-helpers';

/**
 * Issue #48's overload, at the Node server: beyond its bounds of public requests (and their bytes) in flight, a
 * request is answered 503 with Retry-After before its body is read, and every request gets an HTTP answer (none is
 * reset, however much body it was still sending).
 */
let api: TestApi;
let server: ReturnType<typeof serve>;
let port: number;
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'zhanggui-shed-'));

beforeAll(async () => {
  api = await startApi();
  key = (await siteDoor(api, await api.login())).key;
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  const root = createRoot(api.app, dir, silentLogger, {
    inFlight: 4,
    bytes: 3_000_000,
    chunkedBytes: 1_000_000,
  });
  server = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1', ...SERVE_OPTIONS });
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A batch of anonymous page views about `bytes` long. */
function batch(bytes: number) {
  const events: Record<string, unknown>[] = [];
  let size = 0;
  while (size < bytes && events.length < 500) {
    const { ip: _, ...e } = event({ path: `/${'p'.repeat(400)}` });
    events.push(e);
    size += JSON.stringify(e).length + 1;
  }
  return Buffer.from(JSON.stringify({ events }));
}

type Outcome = { status: number; retryAfter?: string; body: string } | { error: string };

/** A POST whose body is sent in two halves: the second only when `release` resolves. */
function post(body: Buffer, release: Promise<void> = Promise.resolve()): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/app/site/events',
        headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, 'Site-Key': key },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string, body: text }),
        );
      },
    );
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half));
    release.then(() => req.end(body.subarray(half)));
  });
}

test('beyond the bound, large bodies are answered 503 + Retry-After unread; none is reset; the held ones complete', async () => {
  let open!: () => void;
  const release = new Promise<void>((r) => {
    open = r;
  });
  const body = batch(600_000);
  // Four requests hold the four places, half their bodies sent.
  const held = Array.from({ length: 4 }, () => post(body, release));
  await new Promise((r) => setTimeout(r, 300));
  // Twenty more, each with its body in full: shed, answered before their bodies are read.
  const shed = await Promise.all(Array.from({ length: 20 }, () => post(body)));
  for (const o of shed) {
    expect(o).toMatchObject({ status: 503, retryAfter: '2' });
    expect(JSON.parse((o as { body: string }).body)).toMatchObject({
      code: 50300,
      msg: '服务器繁忙，请稍后重试',
    });
  }
  open();
  const done = await Promise.all(held);
  for (const o of done) {
    expect(o).toMatchObject({ status: 200 });
    expect(JSON.parse((o as { body: string }).body).code).toBe(20000);
  }
  // The places are free again.
  expect(await post(batch(10_000))).toMatchObject({ status: 200 });
});

test('more concurrent large bodies than the bound: every one gets an HTTP answer, the ones beyond shed with Retry-After', async () => {
  // Forty at once, each holding back half its body until thirty answers have come: the ones admitted (at most four,
  // and three by bytes) cannot finish before then, so the answers that come are the shed ones' (each after its body's
  // discard time runs out, as the client sends no more). However slow the machine, the order is the same; a server
  // that admitted them all would answer none, and the test would time out.
  const body = batch(900_000);
  let open!: () => void;
  const release = new Promise<void>((r) => {
    open = r;
  });
  let answered = 0;
  const all = await Promise.all(
    Array.from({ length: 40 }, () =>
      post(body, release).then((o) => {
        if (++answered >= 30) open();
        return o;
      }),
    ),
  );
  expect(all.filter((o) => 'error' in o)).toEqual([]);
  const statuses = all.map((o) => (o as { status: number }).status);
  expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
  expect(all.filter((o) => 'status' in o && o.status === 503 && o.retryAfter !== '2')).toEqual([]);
});
