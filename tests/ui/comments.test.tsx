// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, testDataProvider } from 'react-admin';
import { afterEach, expect, test, vi } from 'vitest';
import { createI18nProvider } from '../../src/i18n';
import { sections } from '../../src/resources';
import { GuestbookList } from '../../src/resources/comment/GuestbookList';
import { AuthorField, TargetField } from '../../src/resources/comment/shared';
import { MemberStatusChip, VipChip } from '../../src/resources/users/shared';
import { apiPaths } from '../../src/routes/build';
import { flattenRoutes, matchRoute } from '../../src/routes/table';

/** Issue #14: the comment and members sections — routes, and what their rows show, in both languages. */
afterEach(cleanup);
// A list renders react-admin's whole frame: slow on a busy machine, and no assertion here is about time.
vi.setConfig({ testTimeout: 60_000 });

function wrap(children: ReactNode, locale: 'zh-CN' | 'en-US' = 'zh-CN') {
  return render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider(locale)}>
      {children}
    </AdminContext>,
  );
}

test("the sections declare SPEC.md's routes: /comment → list, guestbook, setting, hidden view; users/list", () => {
  const routes = flattenRoutes(sections);
  const meta = (path: string) => matchRoute(routes, path);
  for (const path of ['/comment/list', '/comment/guestbook', '/comment/setting', '/users/list'])
    expect(meta(path)?.hideInMenu, path).toBe(false);
  expect(meta('/comment/view')).toMatchObject({ hideInMenu: true, activeMenu: '/comment/list' });
  expect(apiPaths(sections)).toMatchObject({
    'comment/list': 'admin/comment/comments',
    'comment/guestbook': 'admin/comment/guestbook',
    'users/list': 'admin/users',
  });
});

test('a member reads an expired VIP as expired, and their status, in Chinese and English', async () => {
  wrap(
    <>
      <VipChip state="expired" level={2} />
      <VipChip state="none" level={0} />
      <MemberStatusChip status="banned" />
    </>,
  );
  expect(await screen.findByText('已过期 · Lv2')).toBeTruthy();
  expect(screen.getByText('无')).toBeTruthy();
  expect(screen.getByText('已封禁')).toBeTruthy();
  cleanup();
  wrap(<VipChip state="active" level={1} />, 'en-US');
  expect(await screen.findByText('Active · Lv1')).toBeTruthy();
});

test("a comment names its target with a link to it and its member with a link to the member's comments", async () => {
  wrap(
    <>
      <TargetField type="movie" id={42} title="好电影" />
      <AuthorField userId={7} account="alice" guestName="" />
      <AuthorField userId={null} account={null} guestName="" />
    </>,
  );
  expect((await screen.findByRole('link', { name: '好电影' })).getAttribute('href')).toMatch(
    /\/movie\/review\/edit\/42$/,
  );
  expect(screen.getByText('影片')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'alice' }).getAttribute('href')).toMatch(
    /\/comment\/view\?user=7$/,
  );
  expect(screen.getByText('游客')).toBeTruthy();
});

test('a guestbook row links a broken-video report to its movie, shows what was masked, and the list filters by member and address', async () => {
  const entry = {
    id: 5,
    kind: 'broken',
    movieId: 42,
    movieTitle: '打不开的片',
    content: '播放**',
    originalContent: '播放垃圾',
    userId: 7,
    userAccount: 'alice',
    guestName: '',
    contact: '',
    address: '203.0.113.9',
    reply: '',
    repliedAt: null,
    status: 'pending',
    rejectReason: '',
    version: 1,
    createdAt: '2026-11-26T10:00:00.000Z',
  };
  const dataProvider = testDataProvider({
    getList: async () => ({ data: [entry], total: 1 }) as any,
  });
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('zh-CN')}>
      <GuestbookList />
    </AdminContext>,
  );
  expect(
    (await screen.findByRole('link', { name: '打不开的片' }, { timeout: 30_000 })).getAttribute('href'),
  ).toMatch(/\/movie\/review\/edit\/42$/);
  expect(screen.getByText('原文: 播放垃圾')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'alice' }).getAttribute('href')).toMatch(
    /\/comment\/view\?user=7$/,
  );
  // The filters beside the search: member and address are offered (under "add filter").
  fireEvent.click(screen.getByRole('button', { name: '添加筛选' }));
  expect(await screen.findByRole('menuitemcheckbox', { name: /会员 ID/ })).toBeTruthy();
  expect(screen.getByRole('menuitemcheckbox', { name: /地址/ })).toBeTruthy();
});
