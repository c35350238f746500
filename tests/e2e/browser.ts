import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { E2E_ADMIN_PASSWORD } from './setup';

export const SCREENSHOTS = 'tests/e2e/screenshots';
export const ADMIN = { username: 'admin', password: E2E_ADMIN_PASSWORD };
export const baseURL = () => inject('baseURL');

export const launch: () => Promise<Browser> = launchChromium;

/** A fresh context (empty storage) in the given UI locale and theme, preset through localStorage. */
export async function newContext(
  browser: Browser,
  opts: { locale?: 'zh-CN' | 'en-US'; theme?: 'light' | 'dark' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: 1366, height: 800 },
    locale: opts.locale ?? 'zh-CN',
  });
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
  return context;
}

/** Logs in through the login page and waits for the admin. */
export async function login(page: Page, user = ADMIN) {
  await page.goto('/login');
  await page.locator('input[name="username"]').fill(user.username);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: false });
}

/** No serious or critical axe-core violation on the page as it stands. */
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
  // Every rule runs; only the violations are collected (passes and inapplicable nodes are not: nobody reads them).
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
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

/**
 * Sends events to the public ingestion with the tenant's site key, as the content site does. The settings journey
 * (another file on the same server and tenant) makes new site keys: a key is made here only when there is none, and
 * the current key is read again when it was replaced in between. Resolves with the ingestion's answer.
 */
export async function sendEvents(events: unknown[]) {
  let body: any;
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = (await api('/app/admin/setting/site-key')).key;
    const key = current ?? (await api('/app/admin/setting/site-key/regenerate', { json: {} })).key;
    const res = await fetch(new URL('/app/site/events', baseURL()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Site-Key': key },
      body: JSON.stringify({ events }),
    });
    body = await res.json();
    if (body.code !== 40100) break;
  }
  return body;
}
