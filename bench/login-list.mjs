// Login → the review list rendered (issue #18: ≤ 1 s on this machine), in Chromium against the built server on a
// seeded data dir (SEED=1): from the click on "登录" on /login until /movie/review shows its rows. Cold: a fresh
// browser context each run (empty HTTP cache). Warm: the same context again after a logout (the token removed,
// /login reopened: scripts come from the HTTP cache). Prints p50 / max of the runs and the waterfall of the last
// cold and warm run: every request after the click (start and end, ms after the click).
// `SERVER=/other/checkout node bench/login-list.mjs` times another checkout's build (before/after figures).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from '../scripts/chromium.mjs';
import { ensureBuilt, startServer, stop, watchRequests } from './_server.mjs';
import { loadLine, percentile } from './_timing.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PASSWORD = 'bench-pass-1'; // the first admin's (startServer sets ADMIN_PASSWORD)
const checkout = process.env.SERVER ? resolve(process.env.SERVER) : undefined;
if (!checkout) ensureBuilt();

const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-'));
const port = 23500 + Math.floor(Math.random() * 400);
const first = await startServer(dir, port, { SEED: '1' }, checkout);
await stop(first.child); // seeding done: the measured server starts on the existing, seeded data dir
const server = await startServer(dir, port, {}, checkout);
const browser = await launchChromium();

/** One login on `page` (showing /login): ms from the click to the list's first row, and the requests after it. */
async function timeLogin(page) {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.waitForLoadState('networkidle');
  const t0 = performance.now();
  const done = watchRequests(page, t0);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname === '/movie/review');
  await page.locator('table tbody tr').first().waitFor({ timeout: 30_000 });
  const ms = performance.now() - t0;
  const requests = done();
  return { ms, requests };
}

async function logout(page) {
  await page.evaluate(() => localStorage.clear());
}

const cold = [];
const warm = [];
let lastCold;
let lastWarm;
for (let i = 0; i < RUNS; i++) {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  lastCold = await timeLogin(page);
  cold.push(lastCold.ms);
  await logout(page);
  lastWarm = await timeLogin(page);
  warm.push(lastWarm.ms);
  await context.close();
}
await browser.close();
await stop(server.child);
rmSync(dir, { recursive: true, force: true });

const p50 = (xs) => percentile(xs, 50);
const f = (x) => (x === undefined ? '—' : x.toFixed(0));
const origin = server.url;
function waterfall(title, run) {
  console.log(`\n${title}: ${f(run.ms)} ms; requests after the click (ms after it):`);
  console.log('| request | start | end |\n|---|---:|---:|');
  for (const q of run.requests)
    console.log(`| ${q.r.method()} ${q.url.replace(origin, '')} | ${f(q.start)} | ${f(q.end)} |`);
  // An API call sent twice means a prefetch the screen did not use (its query drifted from prefetchHome's).
  const api = run.requests.filter((q) => q.url.includes('/app/')).map((q) => q.url.replace(origin, ''));
  const twice = [...new Set(api.filter((u, i) => api.indexOf(u) !== i))];
  console.log(twice.length ? `API calls sent twice: ${twice.join(', ')}` : 'no API call sent twice');
}
waterfall('last cold run', lastCold);
waterfall('last warm run', lastWarm);
console.log(`\nlogin → review list rows, ${RUNS} runs (${loadLine()}; target ≤ 1000 ms):`);
console.log(`  cold cache (fresh context): p50 ${f(p50(cold))} ms, max ${f(Math.max(...cold))} ms`);
console.log(`  warm cache (after a logout): p50 ${f(p50(warm))} ms, max ${f(Math.max(...warm))} ms`);
