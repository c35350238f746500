import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  api,
  expectAccessible,
  launch,
  login,
  look,
  newContext,
  SCREENSHOTS,
  screenshot,
  settled,
  signedPost,
  visit,
} from './browser';

/**
 * Issue #14's journey: a member signs up and comments through the site API; the operator finds the comment and its
 * reply, hides it in a batch, replies to a guestbook entry inline, sets a block word and tries the rules on past
 * comments, then bans the member from their comments page and undoes the ban; on the member's own page (issue #52) the
 * ban is in their history, an admin's edit is saved and a reset code is spent by the site. Then each screen in both languages
 * and themes (switched in place), photographed and checked with axe.
 */

let browser: Browser;
let p: Page;
const stamp = Date.now().toString(36);
const account = `e2e${stamp}`;
let memberId: number;

/** A site API call on a member's behalf: signed by the site's server (browser.ts signedPost). */
async function site(path: string, body: unknown) {
  const env = (await signedPost(path, body)) as { code: number; msg: string; data: any };
  expect(env.code, `${path}: ${env.msg}`).toBe(20000);
  return env.data;
}

beforeAll(async () => {
  browser = await launch();
  memberId = (await site('/app/site/users', { account, address: '203.0.113.77', channel: 'A1001' })).id;
  const movie = await api('/app/admin/movie/movies', { json: { title: `E2E 评论影片 ${stamp}` } });
  const top = await site('/app/site/comments', {
    targetType: 'movie',
    targetId: movie.id,
    userId: memberId,
    address: '203.0.113.77',
    content: `很好看 ${stamp}`,
  });
  await site('/app/site/comments', {
    targetType: 'movie',
    targetId: movie.id,
    parentId: top.id,
    guestName: '路人',
    userId: memberId,
    address: '203.0.113.78',
    content: `同意 ${stamp}`,
  });
  await site('/app/site/guestbook', {
    guestName: `访客${stamp}`,
    address: '203.0.113.79',
    content: `求片 ${stamp}`,
  });
  await site('/app/site/guestbook', {
    kind: 'broken',
    movieId: movie.id,
    guestName: `访客${stamp}`,
    address: '203.0.113.80',
    content: `放不了 ${stamp}`,
  });
  // A login through the page of its own (not the shared API session): in runs with the other files the ban step
  // failed three times out of four with the shared one, and passed alone (suite notes, 2026-11-26).
  p = await (await newContext(browser, { locale: 'zh-CN', theme: 'light' })).newPage();
  await login(p);
});
afterAll(() => browser?.close());

const confirm = () => p.getByRole('dialog').getByRole('button', { name: '确认' }).click();

test('comments journey: find, thread, hide, reply, filter trial, ban and undo', async () => {
  // The comment list: search by the stamp, open the thread, hide the comment in a batch.
  await p.goto('/comment');
  await p.waitForURL((u) => u.pathname === '/comment/list');
  await p.getByPlaceholder('搜索内容').fill(`很好看 ${stamp}`);
  // The search applied and its list shown: the row may already stand in the unfiltered list, and a click on it before
  // the filtered list replaces that one opens a thread the new list closes again.
  await p.waitForURL((u) => u.search.includes(encodeURIComponent(stamp)));
  await settled(p);
  const row = p.getByRole('row', { name: new RegExp(`很好看 ${stamp}`) });
  await expect.poll(() => row.count()).toBe(1);
  await expect.poll(() => row.getByRole('link', { name: `E2E 评论影片 ${stamp}` }).count()).toBe(1);
  await row.getByText(`很好看 ${stamp}`).click(); // a row opens its replies
  // Its reply shows in the opened thread (a list item under the row, not a row of the list).
  await expect
    .poll(() =>
      p
        .locator('li')
        .filter({ hasText: `同意 ${stamp}` })
        .count(),
    )
    .toBe(1);
  await screenshot(p, 'comments-thread-zh-CN');
  await row.getByRole('checkbox').check();
  await p.getByRole('button', { name: '隐藏' }).click();
  await confirm();
  await expect.poll(() => row.getByText('已隐藏').count()).toBe(1);

  // The guestbook: the unanswered entry, answered inline.
  await p.goto('/comment/guestbook');
  await p.getByPlaceholder('搜索留言').fill(stamp);
  const entry = p.getByRole('row', { name: new RegExp(`求片 ${stamp}`) });
  await expect.poll(() => entry.count()).toBe(1);
  await entry.getByText(`求片 ${stamp}`).click();
  await p.getByRole('textbox', { name: '回复' }).fill('已上架，请搜索片名');
  await p.getByRole('button', { name: '发送回复' }).click();
  await expect.poll(() => p.getByText('回复已保存').count()).toBeGreaterThan(0);
  const replied = await api(`/app/admin/comment/guestbook?q=${encodeURIComponent(`求片 ${stamp}`)}`);
  expect(replied.list[0]).toMatchObject({ reply: '已上架，请搜索片名' });
  // The broken-video report names its movie, linked to it.
  const broken = p.getByRole('row', { name: new RegExp(`放不了 ${stamp}`) });
  await expect.poll(() => broken.getByRole('link', { name: `E2E 评论影片 ${stamp}` }).count()).toBe(1);
  await screenshot(p, 'comments-guestbook-broken-zh-CN');

  // The filter: a block word for this run, saved, then tried on past comments.
  await p.goto('/comment/setting');
  const words = p.getByRole('textbox', { name: /禁止词/ });
  await words.fill(`广告${stamp}`);
  await p.getByRole('button', { name: '保存' }).click();
  await expect.poll(() => p.getByText('过滤规则已保存').count()).toBeGreaterThan(0);
  await p.getByRole('button', { name: '用历史内容试运行' }).click();
  await expect.poll(() => p.getByText(/对最新 \d+ 条显示中或待审核的内容试运行/).count()).toBe(1);
  await screenshot(p, 'comments-filter-trial-zh-CN');
  const filters = await api('/app/admin/comment/filters');
  expect(filters.list.find((f: any) => f.module === 'comment').blockWords).toEqual([`广告${stamp}`]);

  // The member: from the members list to their comments, banned, then the ban undone.
  await p.goto('/users/list');
  await p.getByPlaceholder('账号、手机或邮箱开头').fill(account);
  const member = p.getByRole('row', { name: new RegExp(account) });
  await expect.poll(() => member.count()).toBe(1);
  await member.getByText(account).click();
  // A row opens the member's own page (issue #52); their comments page, with the ban, is one link away.
  await p.waitForURL((u) => u.pathname === `/users/detail/${memberId}`);
  await p.getByRole('link', { name: '查看全部评论、封禁或撤销' }).click();
  await p.waitForURL((u) => u.pathname === '/comment/view');
  await p.getByRole('button', { name: '封禁' }).click();
  await expect
    .poll(() =>
      p
        .getByRole('dialog')
        .getByText(/203\.0\.113\.77/)
        .count(),
    )
    .toBe(1);
  await confirm();
  await expect.poll(() => p.getByText('已封禁', { exact: true }).count()).toBe(1);
  expect((await api(`/app/admin/users/${memberId}`)).status).toBe('banned');
  await p.getByRole('button', { name: '撤销封禁' }).click();
  await confirm();
  await expect.poll(() => p.getByText('正常', { exact: true }).count()).toBe(1);
  expect((await api(`/app/admin/users/${memberId}`)).status).toBe('active');
});

test("member page: the ban in their history, the admin's edit saved, a reset code the member spends on the site", async () => {
  await p.goto(`/users/detail/${memberId}`);
  // The ban and its undo, with the address it blacklisted.
  const ban = p.getByRole('row', { name: /203\.0\.113\.77/ });
  await expect.poll(() => ban.count()).toBe(1);
  expect(await ban.getByText('生效中').count()).toBe(0);
  // Their comment opens in the comments list, filtered to it; then back to the member.
  await p.getByRole('link', { name: `很好看 ${stamp}` }).click();
  await p.waitForURL((u) => u.pathname === '/comment/list');
  // The list's own rows start with their checkbox; a thread the earlier test opened shows its replies in a row of
  // its own ("回复 …"), which is not a listed comment.
  const listed = (text: string) => p.getByRole('row', { name: new RegExp(`^选择此行 .*${text} ${stamp}`) });
  await expect.poll(() => listed('很好看').count()).toBe(1);
  await expect.poll(() => listed('同意').count()).toBe(0);
  await p.goBack();
  await p.waitForURL((u) => u.pathname === `/users/detail/${memberId}`);
  await p.getByRole('spinbutton', { name: '积分' }).fill('321');
  await p.getByRole('button', { name: '保存' }).click();
  await expect.poll(() => p.getByText('会员已保存').count()).toBeGreaterThan(0);
  expect((await api(`/app/admin/users/${memberId}`)).points).toBe(321);
  // The code is shown once; the site's server spends it with the member's new password.
  await p.getByRole('button', { name: '生成重置码' }).click();
  await confirm();
  const shown = p.getByTestId('reset-code');
  await expect.poll(() => shown.count()).toBe(1);
  const code = (await shown.textContent())!.trim();
  // Once the confirmation has gone and the code's dialog has faded in.
  await expect.poll(() => p.getByRole('dialog').count()).toBe(1);
  await p.waitForFunction(
    () => getComputedStyle(document.querySelector('.MuiDialog-container')!).opacity === '1',
  );
  await p.screenshot({ path: `${SCREENSHOTS}/member-page-code-zh-CN.png` });
  await p.getByRole('button', { name: '完成' }).click();
  await expect.poll(() => shown.count()).toBe(0);
  await site('/app/site/users/reset', { account, code, newPassword: 'member-pass-9' });
  const again = (await signedPost('/app/site/users/reset', {
    account,
    code,
    newPassword: 'other-pass-9',
  })) as {
    code: number;
  };
  expect(again.code).toBe(40000);
});

const SCREENS = [
  ['comment-list', '/comment/list'],
  ['comment-guestbook', '/comment/guestbook'],
  ['comment-setting', '/comment/setting'],
  ['users-list', '/users/list'],
] as const;

const COMBOS = [
  ['zh-CN', 'light', true],
  ['zh-CN', 'dark', false],
  ['en-US', 'dark', true],
  ['en-US', 'light', false],
] as const;

for (const [locale, theme, axe] of COMBOS)
  test(`every screen in ${locale} ${theme}, switched in place: screenshots${axe ? ' and axe' : ''}`, async () => {
    await look(p, locale, theme);
    for (const [name, path] of SCREENS) {
      await visit(p, path, 'table, [role="tablist"]');
      await expect.poll(() => p.evaluate(() => document.documentElement.lang)).toBe(locale);
      await screenshot(p, `${name}-${locale}-${theme}`);
      if (axe) await expectAccessible(p);
    }
    await visit(p, `/comment/view?user=${memberId}`, 'table');
    await screenshot(p, `comment-view-${locale}-${theme}`);
    if (axe) await expectAccessible(p);
    await visit(p, `/users/detail/${memberId}`, 'table');
    await p.screenshot({ path: `${SCREENSHOTS}/member-page-${locale}-${theme}.png`, fullPage: true });
    if (axe) await expectAccessible(p);
  });
