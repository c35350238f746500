import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, expectAccessible, LOOKS, launch, look, screenshot, session, visit } from './browser';

/**
 * Issue #17 "Reviewing a queue": the review actions stay in view, approve-and-next and reject-and-next open the
 * next item of the list as it was filtered and sorted, and the keys (A, R, J, ?) work a queue without the mouse.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const TEXT = {
  'zh-CN': { approveNext: '审核通过并下一条', keys: '审核快捷键' },
  'en-US': { approveNext: 'Approve and next', keys: 'Review shortcuts' },
} as const;

/** Lets fades end (a dialog or tooltip half-way in is not what the operator sees). */
const settled = (p: Page) =>
  p.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY) // a spinner never ends
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );

const idInUrl = (p: Page) => Number(new URL(p.url()).pathname.split('/').pop());

test('three movies of a filtered queue reviewed in a row with the keyboard alone', async () => {
  const stamp = `Q${Date.now().toString(36)}`;
  const ids: number[] = [];
  for (const n of [1, 2, 3]) {
    const m = await api('/app/admin/movie/movies', {
      json: { title: `E2E 队列 ${stamp} ${n}`, description: 'e2e queue', platforms: [2], duration: 60 },
    });
    ids.push(m.id);
  }
  const p = await session(browser, { locale: 'zh-CN', theme: 'light' });
  const context = p.context();
  // The queue as the operator filters and sorts it: these three, oldest first.
  const filter = encodeURIComponent(JSON.stringify({ q: stamp }));
  await p.goto(`/movie/review?filter=${filter}&sort=createdAt&order=ASC&page=1&perPage=20`);
  await p.getByText(`E2E 队列 ${stamp} 1`).waitFor(); // the list as filtered is shown (and its params stored)
  await p.goto(`/movie/review/edit/${ids[0]}`);
  await p.getByRole('button', { name: TEXT['zh-CN'].approveNext }).waitFor();
  await expect.poll(() => p.getByRole('button', { name: TEXT['zh-CN'].approveNext }).count()).toBe(1);
  const focusPage = () =>
    p
      .locator('body')
      .click({ position: { x: 1, y: 1 } })
      .catch(() => undefined);
  await p.keyboard.press('Escape');
  await focusPage();

  // 1: A, Enter → approved, on to 2.
  await p.keyboard.press('a');
  await expect.poll(() => p.getByRole('dialog').count()).toBe(1);
  await p.keyboard.press('Enter');
  await expect.poll(() => idInUrl(p)).toBe(ids[1]);
  await expect.poll(() => p.locator('input[name="title"]').inputValue()).toBe(`E2E 队列 ${stamp} 2`);

  // 2: R, a reason, Enter → rejected, on to 3.
  await p.keyboard.press('r');
  await expect.poll(() => p.getByRole('dialog').getByRole('textbox').count()).toBe(1);
  await p.keyboard.type('画质太差');
  // The reason is in (confirm enabled), then Enter in the reason field confirms.
  await expect.poll(() => p.getByRole('dialog').getByRole('button', { name: '确认' }).isEnabled()).toBe(true);
  await p.keyboard.press('Enter');
  await expect.poll(() => idInUrl(p)).toBe(ids[2]);
  await expect.poll(() => p.locator('input[name="title"]').inputValue()).toBe(`E2E 队列 ${stamp} 3`);

  // ?: the keys, then 3: A, Enter → approved; nothing follows in this queue: back to the list.
  await p.keyboard.press('?');
  await expect.poll(() => p.getByRole('dialog', { name: TEXT['zh-CN'].keys }).count()).toBe(1);
  await settled(p);
  await screenshot(p, 'review-queue-keys-zh-CN-light');
  await p.keyboard.press('Escape');
  await expect.poll(() => p.getByRole('dialog').count()).toBe(0);
  await p.keyboard.press('a');
  await expect.poll(() => p.getByRole('dialog').count()).toBe(1);
  await p.keyboard.press('Enter');
  await expect.poll(() => new URL(p.url()).pathname).toBe('/movie/review');

  const statuses = await Promise.all(ids.map((id) => api(`/app/admin/movie/movies/${id}`)));
  expect(statuses.map((m) => m.status)).toEqual(['online', 'rejected', 'online']);
  expect(statuses[1].rejectReason).toBe('画质太差');
  await context.close();
});

test('the review bar stays in view, in both languages and themes', { timeout: 120_000 }, async () => {
  const stamp = `B${Date.now().toString(36)}`;
  const movie = await api('/app/admin/movie/movies', {
    json: { title: `E2E bar ${stamp}`, description: 'e2e', platforms: [2], duration: 60 },
  });
  const novel = await api('/app/admin/novel/novels', { json: { title: `E2E 审核栏 ${stamp}` } });
  const p = await session(browser, { locale: 'zh-CN', theme: 'light' });
  const context = p.context();
  await visit(p, '/movie/review');
  let first = true;
  for (const [locale, theme] of LOOKS) {
    await look(p, locale, theme);
    for (const [name, path] of [
      ['movie', `/movie/review/edit/${movie.id}`],
      ['novel', `/novel/review/edit/${novel.id}`],
    ] as const) {
      await visit(p, path);
      const bar = p.getByRole('button', { name: TEXT[locale].approveNext });
      await expect.poll(() => bar.count()).toBe(1);
      // At the top of a long form, the bar is on screen without scrolling.
      await expect.poll(() => bar.isVisible()).toBe(true);
      const box = await bar.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(800);
      await bar.hover();
      await expect.poll(() => p.getByRole('tooltip').count()).toBe(1);
      await settled(p);
      await screenshot(p, `review-queue-bar-${name}-${locale}-${theme}`);
      if (first) {
        await expectAccessible(p);
        first = false;
      }
    }
  }
  await context.close();
});
