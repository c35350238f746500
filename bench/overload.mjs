// Overload at the public door (issue #48): BENCH_CLIENTS (300) clients at once, each sending one batch of about 1 MB
// to POST /app/site/events on the built server (PGlite). Prints how many were answered (200), shed (429/503, with
// Retry-After), answered otherwise, and reset or closed without an answer, and the server's peak resident memory
// (VmHWM). Writes bench/results/overload.json.
//
//   npm run bench -- overload      BENCH_CLIENTS=300  BENCH_BODY_KB=1000
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startServer, stop } from './_server.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 300);
const BODY_KB = Number(process.env.BENCH_BODY_KB ?? 1000);

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'zg-overload-'));
const port = 19000 + Math.floor(Math.random() * 500);
const { child, url } = await startServer(dir, port);
try {
  const post = (path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const token = (await post('/app/admin/login', { username: 'admin', password: 'bench-pass-1' })).data.token;
  const key = (await post('/app/admin/setting/site-key/regenerate', {}, { 'Admin-Token': token })).data.key;

  const time = new Date(Date.now() - 60_000).toISOString();
  const bodies = Array.from({ length: CLIENTS }, (_, c) => {
    const events = [];
    let size = 12;
    for (let i = 0; size < BODY_KB * 1024 - 2200 && events.length < 500; i++) {
      const e = {
        id: `ovl-${c}-${i}`,
        type: 'pageview',
        time,
        domain: 'www.example.com',
        path: `/p/${i}`,
        visitor: `v${c}`,
        referrer: `https://ref.example.com/${'r'.repeat(1900)}`,
      };
      events.push(e);
      size += JSON.stringify(e).length + 1;
    }
    return Buffer.from(JSON.stringify({ events }));
  });

  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {}
  }, 50);
  const t0 = performance.now();
  const outcomes = await Promise.all(
    bodies.map(
      (body) =>
        new Promise((resolve) => {
          const req = http.request(
            `${url}/app/site/events`,
            {
              method: 'POST',
              agent: false,
              headers: { 'content-type': 'application/json', 'content-length': body.length, 'Site-Key': key },
            },
            (res) => {
              res.resume();
              res.on('end', () =>
                resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] }),
              );
            },
          );
          req.on('error', (err) => resolve({ error: err.code ?? err.message }));
          req.end(body);
        }),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sample);
  const count = (f) => outcomes.filter(f).length;
  const figures = {
    clients: CLIENTS,
    bodyKb: Math.round(bodies[0].length / 1024),
    answered200: count((o) => o.status === 200),
    shed: count((o) => o.status === 429 || o.status === 503),
    shedWithoutRetryAfter: count((o) => (o.status === 429 || o.status === 503) && !o.retryAfter),
    otherStatus: count((o) => o.status && o.status !== 200 && o.status !== 429 && o.status !== 503),
    resetOrNoAnswer: count((o) => o.error),
    peakRssMb: Math.round(peakKb / 1024),
    seconds: Math.round(seconds * 10) / 10,
  };
  console.log(figures);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/overload.json',
    `${JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 2)}\n`,
  );
} finally {
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
}
