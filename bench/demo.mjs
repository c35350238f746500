// Demo mode's first visit (issue #17): the static build served precompressed (scripts/demo-serve.mjs) to a fresh
// headless Chromium; prints the time until the login page is usable (form and demo credentials shown) and the bytes
// that crossed the wire, first visit and reload. Targets: first usable login ≤ 4 s, ≤ 6 MB on the wire.
// `BENCH_RUNS` (3) first visits, each in a fresh profile; `BENCH_BUILD=0` reuses dist/demo as it is.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { launchChromium } from '../scripts/chromium.mjs';
import { serveDemo } from '../scripts/demo-serve.mjs';

if (process.env.BENCH_BUILD !== '0' || !existsSync('dist/demo/index.html'))
  execFileSync(process.execPath, ['scripts/demo.mjs'], { stdio: ['ignore', 'inherit', 'inherit'] });
const runs = Number(process.env.BENCH_RUNS ?? 3);
const port = 24500 + Math.floor(Math.random() * 400);
const server = await serveDemo('dist/demo', { port, host: '127.0.0.1' });
const url = `http://localhost:${port}/login`;
const browser = await launchChromium();

/** One visit: ms from navigation to a usable login form, and the encoded bytes received (CDP, all requests). */
async function visit(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let wire = 0;
  const urls = new Map();
  const parts = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    wire += e.encodedDataLength;
    const name = new URL(urls.get(e.requestId) ?? 'http://x/?').pathname.split('/').pop() || '/';
    parts.set(name, (parts.get(name) ?? 0) + e.encodedDataLength);
  });
  const t0 = Date.now();
  await page.goto(url);
  await page.locator('input[name="username"]').waitFor({ timeout: 120_000 });
  await page.getByText('demo1234').first().waitFor({ timeout: 120_000 });
  const ms = Date.now() - t0;
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return { ms, wire, parts };
}

const first = [];
let reload;
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const page = await context.newPage();
  first.push(await visit(page));
  if (i === runs - 1) reload = await visit(page);
  await context.close();
}
await browser.close();
server.close();

const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
const s = (n) => `${(n / 1000).toFixed(2)} s`;
const sorted = [...first].sort((a, b) => a.ms - b.ms);
const median = sorted[Math.floor(sorted.length / 2)];
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
for (const [i, r] of first.entries())
  console.log(`first visit ${i + 1}: usable login in ${s(r.ms)}, ${mb(r.wire)} on the wire`);
console.log(`reload (database reopened): usable login in ${s(reload.ms)}, ${mb(reload.wire)} on the wire`);
console.log('the largest parts of the first visit:');
for (const [name, n] of [...first[0].parts].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`  ${(n / 1000).toFixed(0).padStart(6)} KB  ${name}`);
console.log(
  `first visit, median of ${runs}: ${s(median.ms)} (target ≤ 4 s), ${mb(median.wire)} on the wire (target ≤ 6 MB)`,
);
