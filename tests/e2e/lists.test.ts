import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, expectAccessible, launch, screenshot, session, visit } from './browser';

/**
 * Issue #17, lists and roles: the online list is compact (one-line rows, tags on one line with "+N") with a density
 * switch each operator keeps; a user-role operator meets a read-only banner instead of rows leading nowhere, and a
 * refused page is SPEC's 403 page, titled so. That no screen scrolls sideways is layout.test.ts's (issue #52).
 */

let browser: Browser;
const stamp = Date.now().toString(36);
const title = `列表紧凑测试 A very long online title that would wrap onto several lines ${stamp}`;
const USER = { username: `e2e-lists-${stamp}`, password: 'user-pass-17' };
beforeAll(async () => {
  browser = await launch();
  const column = await api('/app/admin/movie/columns', { json: { name: `紧凑${stamp}`, sort: 1 } });
  const tags = [];
  for (const name of ['高清', '国产', '剧情', '热门', '新片'])
    tags.push((await api('/app/admin/movie/tags', { json: { name: `${name}${stamp}` } })).id);
  const movie = await api('/app/admin/movie/movies', {
    json: { title, columnId: column.id, tagIds: tags, platforms: [2], duration: 5400 },
  });
  await api('/app/admin/movie/movies/batch', { json: { action: 'approve', ids: [movie.id] } });
  await api('/app/admin/operators', {
    json: { account: USER.username, password: USER.password, nickname: '列表用户', role: 'user' },
  });
});
afterAll(() => browser?.close());

/** A page logged in as `user` (the admin unless told), 1440 px wide, on the landing screen. */
async function page(user = undefined as typeof USER | undefined): Promise<Page> {
  const p = await session(browser, {}, user);
  await p.setViewportSize({ width: 1440, height: 900 });
  await visit(p, '/');
  return p;
}

test('the online list is compact, and the density each operator chooses is kept for them', async () => {
  const p = await page();
  await visit(p, '/movie/onlinectx');
  const row = p.getByRole('row', { name: new RegExp(stamp) });
  await expect.poll(() => row.count()).toBe(1);
  // one line: five tags show as two chips and "+3"; the row is no taller than a compact line
  await expect.poll(() => row.getByText('+3', { exact: true }).count()).toBe(1);
  const compact = (await row.boundingBox())!.height;
  expect(compact).toBeLessThanOrEqual(44);
  for (const [locale, theme] of [
    ['zh-CN', 'light'],
    ['zh-CN', 'dark'],
    ['en-US', 'dark'],
    ['en-US', 'light'],
  ] as const) {
    if (theme !== (await p.evaluate(() => (document.body.hasAttribute('arco-theme') ? 'dark' : 'light'))))
      await p.getByRole('button', { name: /深色|浅色|dark theme|light theme/ }).click();
    if (locale !== (await p.evaluate(() => document.documentElement.lang))) {
      await p.getByRole('button', { name: /语言|Language/ }).click();
      await p.getByRole('menuitem', { name: locale === 'en-US' ? 'English' : '中文' }).click();
      await expect.poll(() => p.evaluate(() => document.documentElement.lang)).toBe(locale);
    }
    await expect.poll(() => row.count()).toBe(1);
    await expectAccessible(p);
    await screenshot(p, `lists-online-compact-${locale}-${theme}`);
  }
  await p.getByRole('button', { name: 'Density' }).click();
  await expect.poll(async () => (await row.boundingBox())!.height).toBeGreaterThan(compact + 8);
  await screenshot(p, 'lists-online-comfortable-en-US-light');
  await p.reload();
  await expect.poll(() => row.count()).toBe(1);
  expect((await row.boundingBox())!.height).toBeGreaterThan(compact + 8);
  await p.context().close();

  // another operator in the same browser profile has their own (the default: compact)
  const u = await page(USER);
  await visit(u, '/movie/onlinectx');
  const theirs = u.getByRole('row', { name: new RegExp(stamp) });
  await expect.poll(() => theirs.count()).toBe(1);
  expect((await theirs.boundingBox())!.height).toBeLessThanOrEqual(44);
  await u.context().close();
});

test('a user-role operator: read-only banners, no row leading nowhere, the 403 page for a refused page', async () => {
  const p = await page(USER);
  // every screen the menu offers opens (never the not-found page)
  await p.locator('nav a[href^="/"]').first().waitFor();
  const links = await p
    .locator('nav a[href^="/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
  expect(links.length).toBeGreaterThan(10);
  for (const href of links) {
    await p.locator(`nav a[href="${href}"]`).click();
    await p.waitForURL((u) => u.pathname === href);
    expect({ href, notFound: await p.getByText('抱歉，页面不见了～').count() }).toEqual({
      href,
      notFound: 0,
    });
  }
  await visit(p, '/movie/tags');
  const row = p.getByRole('row', { name: new RegExp(`高清${stamp}`) });
  await expect.poll(() => row.count()).toBe(1);
  expect(await p.getByTestId('read-only').textContent()).toBe('你可以查看此页面；你的角色没有修改权限。');
  await row.getByText(`高清${stamp}`).click();
  expect(new URL(p.url()).pathname).toBe('/movie/tags');
  await screenshot(p, 'lists-user-tags-zh-CN-light');
  await p.goto('/movie/tags/create');
  await expect.poll(() => p.getByText('对不起，您没有访问该资源的权限').count()).toBe(1);
  await expect.poll(() => p.title()).toMatch(/^无权访问/);
  expect(await p.getByText('抱歉，页面不见了～').count()).toBe(0);
  await expectAccessible(p);
  await screenshot(p, 'lists-user-403-zh-CN-light');
  await p.context().close();
});
