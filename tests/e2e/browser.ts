import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { E2E_ADMIN_PASSWORD } from './setup';

export const SCREENSHOTS = 'tests/e2e/screenshots';
export const ADMIN = { username: 'admin', password: E2E_ADMIN_PASSWORD };
export const baseURL = () => inject('baseURL');

/** Every browser this file launched and has not closed: what `failures.ts` photographs when a test fails. */
export const openBrowsers = new Set<Browser>();

export async function launch(): Promise<Browser> {
  const browser = await launchChromium({ tests: true });
  openBrowsers.add(browser);
  browser.on('disconnected', () => openBrowsers.delete(browser));
  return browser;
}

export type Locale = 'zh-CN' | 'en-US';
export type Theme = 'light' | 'dark';
export type Look = { locale?: Locale; theme?: Theme };

/** The two languages by the two themes: what every screen walk covers. */
export const LOOKS: readonly (readonly [Locale, Theme])[] = [
  ['zh-CN', 'light'],
  ['zh-CN', 'dark'],
  ['en-US', 'light'],
  ['en-US', 'dark'],
];

type StorageState = Exclude<Parameters<Browser['newContext']>[0], undefined>['storageState'];

/**
 * A fresh context in the given UI locale and theme, preset through localStorage (empty storage otherwise, or
 * the given storage state: a session made by `session`).
 */
export async function newContext(
  browser: Browser,
  opts: Look & { storageState?: StorageState } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: 1366, height: 800 },
    locale: opts.locale ?? 'zh-CN',
    storageState: opts.storageState,
  });
  // Steps wait up to a minute (Playwright's own default is 30 s): with the API suites beside it on two cores, a
  // route's code and data can take seconds to arrive. A step that never happens still fails. (The journeys' lost
  // clicks of sessions 6–8 were a fault of the app, not of time: src/routes/LeavingScreen.tsx.)
  context.setDefaultTimeout(60_000);
  await context.addInitScript(
    ([locale, theme]) => {
      if (sessionStorage.getItem('e2e-preset')) return;
      sessionStorage.setItem('e2e-preset', '1');
      if (locale) localStorage.setItem('locale', locale);
      if (theme) {
        localStorage.setItem('theme', theme);
        const s = JSON.parse(localStorage.getItem('settings') ?? '{}');
        localStorage.setItem('settings', JSON.stringify({ ...s, theme }));
      }
    },
    [opts.locale ?? '', opts.theme ?? ''],
  );
  await context.addInitScript(trackPending);
  return context;
}

/**
 * Put in every page before its own scripts: counts what the page is still waiting for — requests (fetch until its
 * body has arrived, XHR until it ends) and short timers (a search box's or a screen's debounce before it asks:
 * up to a second; a toast's auto-hide is longer and not counted) — for `settled` to read as `__zgPending()`.
 */
function trackPending() {
  const w = window as unknown as { __zgPending?: () => number };
  if (w.__zgPending) return;
  const timers = new Set<number>();
  let requests = 0;
  const setT = window.setTimeout.bind(window);
  const clearT = window.clearTimeout.bind(window);
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    if (typeof fn !== 'function' || !(Number(ms) <= 1000)) return setT(fn, ms, ...args);
    const id = setT(
      (...a: unknown[]) => {
        timers.delete(id);
        fn(...a);
      },
      ms,
      ...args,
    );
    timers.add(id);
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) timers.delete(id);
    clearT(id);
  }) as typeof window.clearTimeout;
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    requests++;
    try {
      const res = await fetch0(...args);
      // the caller gets it once its body is in: what it does with it is the next frames' business
      await res
        .clone()
        .arrayBuffer()
        .catch(() => undefined);
      return res;
    } finally {
      requests--;
    }
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (
    this: XMLHttpRequest,
    ...args: Parameters<XMLHttpRequest['send']>
  ) {
    requests++;
    this.addEventListener('loadend', () => requests--, { once: true });
    return send.apply(this, args);
  };
  w.__zgPending = () => requests + timers.size;
}

/** Logs in through the login page and waits for the admin. */
export async function login(page: Page, user = ADMIN) {
  await page.goto('/login');
  await page.locator('input[name="username"]').fill(user.username);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

const tokens = new Map<string, Promise<{ token: string; id: number }>>();

/**
 * A page already logged in as `user` (the admin unless told), in a fresh context of the given locale and theme:
 * the session (token and uid, SPEC.md §3) is the one the API login gave this file once per user, put in the
 * context's storage, so no test pays a login (a PBKDF2 hash on the server) it does not check. The page is blank:
 * `visit` opens the first screen. Logging out of it would end the file's shared session: tests of the login and
 * logout themselves use `login`.
 */
export async function session(browser: Browser, look: Look = {}, user = ADMIN): Promise<Page> {
  if (!tokens.has(user.username))
    tokens.set(
      user.username,
      api<{ token: string; id: number }>('/app/admin/login', {
        method: 'POST',
        json: { username: user.username, password: user.password },
        token: '-',
      }),
    );
  const { token, id } = await tokens.get(user.username)!;
  const context = await newContext(browser, {
    ...look,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: baseURL(),
          localStorage: [
            { name: 'token', value: token },
            { name: 'uid', value: String(id) },
          ],
        },
      ],
    },
  });
  return context.newPage();
}

/**
 * Opens `path` the way a click on a link does: inside the running admin (the browser router follows the history),
 * so the app, its session and its caches stay — a page load only when none is running yet (a blank page, the
 * login page) — then waits until the admin shows that path's screen, and `ready` in it when given, and until the
 * screen has settled (`settled`).
 */
export async function visit(p: Page, path: string, ready?: string) {
  const url = new URL(p.url() === 'about:blank' ? baseURL() : p.url());
  const running =
    url.protocol.startsWith('http') &&
    !url.pathname.startsWith('/login') &&
    (await p.evaluate(() => document.querySelector('#root nav') !== null));
  if (running)
    await p.evaluate((to) => {
      // the entry as the router's own navigate pushes it (react-router's history state: usr, key, idx)
      const idx = (window.history.state?.idx ?? 0) + 1;
      window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, path);
  else await p.goto(path);
  await shown(p);
  if (ready) await p.locator(ready).first().waitFor();
  await settled(p);
}

/**
 * Waits until the admin shows the screen of the address in the address bar (a redirect's target included): router
 * transitions keep the old screen until the new one's code has loaded, and the layout names the path of the one it
 * shows (`data-location`, src/layout/Layout.tsx).
 */
export async function shown(p: Page) {
  await p.waitForFunction(
    () =>
      document.querySelector('section[data-location]')?.getAttribute('data-location') ===
      window.location.pathname + window.location.search,
  );
}

/** Stores the language and theme the admin starts in on its next load (the session stays). */
export async function storeLook(p: Page, locale: Locale, theme: Theme) {
  await p.evaluate(
    ([l, t]) => {
      localStorage.setItem('locale', l);
      localStorage.setItem('theme', t);
      const s = JSON.parse(localStorage.getItem('settings') ?? '{}');
      localStorage.setItem('settings', JSON.stringify({ ...s, theme: t }));
    },
    [locale, theme],
  );
}

/**
 * Switches the language and theme of a running admin in place (the session stays): the stored choices, then one
 * reload so the whole admin starts in them, as an operator's next visit would.
 */
export async function look(p: Page, locale: Locale, theme: Theme) {
  await storeLook(p, locale, theme);
  await p.reload();
  await expect.poll(() => p.evaluate(() => document.documentElement.lang)).toBe(locale);
  await settled(p);
}

/**
 * Waits until the screen shows what it loaded: no request in flight and no short timer pending in the page (a
 * debounce before a request: `trackPending`), nothing busy that the admin shows (react-admin's progress bar for
 * any query, mutation or screen code loading; a busy table or image; a skeleton; a date picker still loading),
 * every image loaded and the fonts in — and so for three frames running, so what a screen does just after it
 * mounts is caught. A state, not a clock: `waitForLoadState('networkidle')` waited 500 ms of silence on every
 * screen, and a sleep after it more.
 */
export async function settled(p: Page) {
  await p.waitForFunction(
    () => {
      const w = window as unknown as { __zgCalm?: number; __zgFrame?: number };
      const busy =
        ((window as unknown as { __zgPending?: () => number }).__zgPending?.() ?? 0) > 0 ||
        document.querySelector(
          '[role="progressbar"], [aria-busy="true"], .MuiSkeleton-root, [data-date-placeholder]',
        ) !== null ||
        [...document.images].some((i) => !i.complete) ||
        document.fonts.status !== 'loaded';
      // Counted once per animation frame (the predicate runs on every frame).
      const frame = performance.now();
      if (w.__zgFrame === frame) return false;
      w.__zgFrame = frame;
      w.__zgCalm = busy ? 0 : (w.__zgCalm ?? 0) + 1;
      if (w.__zgCalm >= 3) {
        w.__zgCalm = 0;
        return true;
      }
      return false;
    },
    undefined,
    { polling: 'raf' },
  );
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: false });
}

// The axe-core that @axe-core/playwright brings (and ran before), so the rules are the same ones.
const axeSource = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
);
type AxeRun = (
  context: Document,
  options: { resultTypes: string[] },
) => Promise<{
  violations: {
    id: string;
    impact?: string | null;
    nodes: { target: unknown[]; html: string; failureSummary?: string }[];
  }[];
}>;

/**
 * No serious or critical axe-core violation on the page as it stands. axe-core is put in the page once per page
 * load and run there (`axe.run`, every rule, as @axe-core/playwright's AxeBuilder ran it: it injected the script
 * again on every check and finished each run in a new blank page). The admin has no frames to visit.
 */
export async function expectAccessible(page: Page) {
  // A chip or label half-way through a fade has a contrast it never has at rest: on a busy machine axe caught
  // such frames. Let every running CSS transition and animation end first (infinite ones excepted).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function')))
    await page.evaluate(axeSource);
  // Every rule runs; only the violations are collected (passes and inapplicable nodes are not: nobody reads them).
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: AxeRun } };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String),
        html: n.html,
        failureSummary: n.failureSummary,
      })),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map(
            (n) =>
              `${n.target.join(' ')} ${n.html.slice(0, 120)} ${n.failureSummary?.split('\n').pop() ?? ''}`,
          )
          .slice(0, 3)
          .join(' | ')}`,
    ),
  ).toEqual([]);
}

let adminToken: string | undefined;

/**
 * Calls the running server's API directly (for fixtures an e2e journey needs before it opens a screen), as the
 * e2e admin unless a token is given. Resolves with the envelope's data; any other code fails the test.
 */
export async function api<T = any>(
  path: string,
  init: { method?: string; json?: unknown; token?: string; locale?: string } = {},
): Promise<T> {
  let token = init.token;
  if (!token) {
    adminToken ??= (
      await api<{ token: string }>('/app/admin/login', {
        method: 'POST',
        json: { username: ADMIN.username, password: ADMIN.password },
        token: '-',
      })
    ).token;
    token = adminToken;
  }
  const res = await fetch(new URL(path, baseURL()), {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      'accept-language': init.locale ?? 'en-US',
      ...(token === '-' ? {} : { 'Admin-Token': token }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, `${path}: ${body.msg}`).toBe(20000);
  return body.data;
}

/**
 * Types a day (`YYYY-MM-DD`) or a date and time (`YYYY-MM-DDTHH:mm:ss`) into the date picker of the input `name`
 * (src/components/dates): its parts in the order the interface's language shows them, after clearing it.
 */
export async function fillDate(p: Page, name: string, value: string) {
  const [day, time = ''] = value.split('T');
  const [y, m, d] = day.split('-');
  const lang = await p.evaluate(() => document.documentElement.lang);
  const digits = (lang === 'en-US' ? `${m}${d}${y}` : `${y}${m}${d}`) + time.replace(/:/g, '');
  // The field (loaded with the first picker shown); its parts show only once it has the focus.
  await p.locator(`.MuiPickersInputBase-root:has(input[name="${name}"])`).first().click();
  await p.keyboard.press('ControlOrMeta+A');
  await p.keyboard.press('Backspace');
  await p.keyboard.type(digits);
}

/** Whether the input `name` is a date picker on the page (once the pickers shown have loaded). */
export async function isDatePicker(p: Page, name: string) {
  await p.waitForFunction(() => !document.querySelector('[data-date-placeholder]'));
  return (await p.locator(`.MuiPickersInputBase-root:has(input[name="${name}"])`).count()) > 0;
}

let siteSecret: string | undefined;

/**
 * A POST to the public site API as the site's server sends it: the tenant's site key and a signature with its server
 * secret (HMAC-SHA256 over `<timestamp>.<body>`, docs/security.md). The settings journey (another file on the same
 * server and tenant) makes new site keys, and other files new secrets (each is shown once): a key is made here only
 * when there is none, a secret when this file has none, and both are taken again when the answer is 40100.
 */
export async function signedPost(path: string, payload: unknown) {
  let body: any;
  const text = JSON.stringify(payload);
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = (await api('/app/admin/setting/site-key')).key;
    const key = current ?? (await api('/app/admin/setting/site-key/regenerate', { json: {} })).key;
    siteSecret ??= (await api('/app/admin/setting/site-key/secret', { json: {} })).secret as string;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', siteSecret).update(`${timestamp}.${text}`).digest('hex');
    const res = await fetch(new URL(path, baseURL()), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'Site-Key': key,
        'Site-Timestamp': timestamp,
        'Site-Signature': `v1=${signature}`,
      },
      body: text,
    });
    body = await res.json();
    if (body.code !== 40100) break;
    siteSecret = undefined;
  }
  return body;
}

/** Sends events to the public ingestion as the site's server does (signed: they may hold signups and `ip`). */
export const sendEvents = (events: unknown[]) => signedPost('/app/site/events', { events });
