// What an operator feels (issue #52's targets), in Chromium against the production build on a seeded data dir:
// - login → the first list's rows (≤ 1 s): the click on "登录" until the review list shows a row;
// - every screen of the menu, opened directly (a new page load, scripts in the HTTP cache, as a bookmark or a
//   reload) and through the menu (a click in the running admin), until its first content (≤ 1 s): its rows, its
//   form, its chart, or its empty state, with nothing of it still loading;
// - single actions (≤ 300 ms): from the click that commits (the dialog's confirm, save) until the answer is shown.
// Prints p50 / max per item and, for each one over its target, the API calls it waited on (where the time goes).
// BENCH_RUNS (default 3) runs per item.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../scripts/chromium.mjs';
import { ensureBuilt, startServer, stop, watchRequests } from './_server.mjs';
import { loadLine, percentile } from './_timing.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PASSWORD = 'bench-pass-1'; // the first admin's (startServer sets ADMIN_PASSWORD)
const SCREEN_TARGET = 1000;
const ACTION_TARGET = 300;

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-'));
const port = 23900 + Math.floor(Math.random() * 90);
const first = await startServer(dir, port, { SEED: '1' });
await stop(first.child); // seeding done: the measured server starts on the existing, seeded data dir
const server = await startServer(dir, port, {});
const browser = await launchChromium();
const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
const page = await context.newPage();

/** The API calls of `page` from now until the returned function is called: method, path, ms after `t0`. */
function watch(t0) {
  const done = watchRequests(page, t0, (url) => url.includes('/app/'));
  return () =>
    done().map((c) => ({
      call: `${c.r.method()} ${c.url.replace(server.url, '')}`,
      start: c.start,
      end: c.end,
    }));
}

/**
 * The shown screen is the address bar's (Layout's `data-location`), and its first content is there: rows, a chart, an
 * empty state or an alert, or (not a list) a form's field, with no skeleton or progress bar left in it.
 */
const firstContent = () =>
  page.waitForFunction(
    () => {
      const s = document.querySelector('section[data-location]');
      if (!s || s.getAttribute('data-location') !== window.location.pathname + window.location.search)
        return false;
      if (s.querySelector('.MuiSkeleton-root, [role="progressbar"]')) return false;
      if (s.querySelector('tbody tr, [role="status"], [role="alert"], svg path')) return true;
      // a list shows rows or its empty state; a form or a settings panel its fields (a list's search box is not one)
      if (s.querySelector('.RaList-main')) return false;
      return [...s.querySelectorAll('input, textarea')].some((i) => !i.closest('.RaFilterForm-root, thead'));
    },
    undefined,
    { timeout: 30_000, polling: 'raf' },
  );

async function login() {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.waitForLoadState('networkidle');
  const t0 = performance.now();
  const calls = watch(t0);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('section[data-location] tbody tr').first().waitFor({ timeout: 30_000 });
  return { ms: performance.now() - t0, calls: calls() };
}

const results = [];
/** Runs `once` RUNS times; keeps p50, max and the slowest run's calls. */
async function measure(kind, name, target, once) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    try {
      runs.push(await once(i));
    } catch (e) {
      results.push({ kind, name, target, error: String(e?.message ?? e).split('\n')[0] });
      return;
    }
  }
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const slowest = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
  results.push({
    kind,
    name,
    target,
    p50: percentile(ms, 50),
    max: ms.at(-1),
    calls: slowest.calls,
  });
}

// Login: each run from a logged-out admin in the same context (scripts cached, as an operator's next morning).
await measure('login', 'login → /movie/review rows', SCREEN_TARGET, async () => {
  await page.goto(`${server.url}/login`);
  await page.evaluate(() => localStorage.clear());
  return login();
});
if (results.at(-1).error) throw new Error(`login failed: ${results.at(-1).error}`);

// The menu's screens: every link the menu shows an admin (groups opened).
await page.goto(`${server.url}/movie/review`);
await firstContent();
const screens = await page.evaluate(() => {
  const links = [...document.querySelectorAll('nav a[href^="/"]')].map((a) => a.getAttribute('href'));
  return [...new Set(links)].filter((h) => h && h !== '/login');
});

for (const path of screens) {
  await measure('direct', path, SCREEN_TARGET, async () => {
    await page.goto(`${server.url}/movie/review`);
    await firstContent();
    const t0 = performance.now();
    const calls = watch(t0);
    await page.goto(`${server.url}${path}`);
    await firstContent();
    return { ms: performance.now() - t0, calls: calls() };
  });
  await measure('menu', path, SCREEN_TARGET, async () => {
    if (new URL(page.url()).pathname === path) {
      await page.goto(`${server.url}/movie/review`);
      await firstContent();
    }
    const link = page.locator(`nav a[href="${path}"]`).first();
    await link.scrollIntoViewIfNeeded();
    const t0 = performance.now();
    const calls = watch(t0);
    await link.click();
    await page.waitForURL((u) => u.pathname + u.search === path);
    await firstContent();
    return { ms: performance.now() - t0, calls: calls() };
  });
}

/** Waits for the snackbar the action answers with, then lets it go (the next run waits for a new one). */
async function answered() {
  const bar = page.locator('.MuiSnackbar-root').first();
  await bar.waitFor({ timeout: 30_000 });
}
async function clearSnackbars() {
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('.MuiSnackbar-root')) s.remove();
  });
}

// A batch from a list: select the first row, the batch button, then time the dialog's confirm until the answer.
async function batchAction(path, button) {
  await page.goto(`${server.url}${path}`);
  await firstContent();
  await clearSnackbars();
  await page.locator('section[data-location] tbody tr input[type="checkbox"]').first().check();
  await page.getByRole('button', { name: button, exact: true }).first().click();
  const confirm = page.getByRole('dialog').getByRole('button', { name: '确认' });
  await confirm.waitFor();
  const t0 = performance.now();
  const calls = watch(t0);
  await confirm.click();
  await answered();
  return { ms: performance.now() - t0, calls: calls() };
}

await measure('action', 'comment list: approve one (batch)', ACTION_TARGET, () =>
  batchAction('/comment/list', '通过'),
);
await measure('action', 'comment list: hide one (batch)', ACTION_TARGET, () =>
  batchAction('/comment/list', '隐藏'),
);
await measure('action', 'guestbook: approve one (batch)', ACTION_TARGET, () =>
  batchAction('/comment/guestbook', '通过'),
);

// A form saved: the first notice, its title changed, 保存 until the answer.
await measure('action', 'notice edit: save', ACTION_TARGET, async (i) => {
  await page.goto(`${server.url}/setting/notices`);
  await firstContent();
  await page.locator('section[data-location] tbody tr').first().click();
  await page.waitForURL((u) => u.pathname.startsWith('/setting/notices/edit/'));
  const title = page.locator('section[data-location] form input[name="title"]');
  await title.waitFor();
  await title.fill(`公告 ${Date.now().toString(36)}${i}`);
  await clearSnackbars();
  const t0 = performance.now();
  const calls = watch(t0);
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await answered();
  return { ms: performance.now() - t0, calls: calls() };
});

await browser.close();
await stop(server.child);
rmSync(dir, { recursive: true, force: true });

const f = (x) => (x === undefined ? '—' : x.toFixed(0));
console.log(
  `${RUNS} runs per item (${loadLine()}); p50 and max in ms; targets: screens ≤ ${SCREEN_TARGET}, actions ≤ ${ACTION_TARGET}`,
);
console.log('| kind | item | p50 | max | target | |\n|---|---|---:|---:|---:|---|');
for (const r of results)
  console.log(
    r.error
      ? `| ${r.kind} | ${r.name} | — | — | ${r.target} | not measured: ${r.error} |`
      : `| ${r.kind} | ${r.name} | ${f(r.p50)} | ${f(r.max)} | ${r.target} | ${r.p50 <= r.target ? 'ok' : 'OVER'} |`,
  );
const over = results.filter((r) => !r.error && r.p50 > r.target);
for (const r of over) {
  console.log(`\n${r.kind} ${r.name}: the slowest run's API calls (ms after the start):`);
  for (const c of r.calls) console.log(`  ${f(c.start)}–${f(c.end)}  ${c.call}`);
}
const measured = results.filter((r) => !r.error);
console.log(
  `\n${measured.length - over.length} of ${measured.length} items within their target (p50); ${results.length - measured.length} not measured`,
);
