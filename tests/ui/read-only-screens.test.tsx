// @vitest-environment jsdom
import { cleanup, configure, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearUser } from '../../src/api/session';
import { sections } from '../../src/resources';
import { envelope, stubFetch } from './api-fetch-stub';
import { mountAdmin } from './mount';

/**
 * Issue #52: a screen a `user` may open but whose save the API keeps for admins (the route's `editRoles`) is shown
 * read-only: no save, inputs disabled, the reason at the top; actions it may not run are disabled, saying why.
 */
vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 20_000 });

const RECORDS: Record<string, unknown> = {
  'admin/ad/ads/41': {
    id: 41,
    title: '首页横幅素材',
    landingUrl: 'https://a.example/x',
    version: 2,
    platforms: [],
  },
  'admin/ad/positions/1': { id: 1, name: '首页横幅', key: 'home', version: 1 },
  'admin/agents/1/domains': [],
  'admin/agents/1': {
    id: 1,
    name: '华东推广一部',
    channel: 'agent01',
    model: 'share',
    rate: '30.00',
    version: 1,
  },
};

let role = 'user';
beforeEach(() => {
  clearUser();
  localStorage.setItem('token', 't');
  localStorage.setItem('uid', '1');
  stubFetch((req) => {
    const path = req.url.split('?')[0].replace(/^\/app\//, '');
    if (path === 'admin/info') return envelope({ uid: 1, account: 'reader', nickname: 'R', role });
    if (path === 'admin/stats/meta')
      return envelope({ timeZone: 'Asia/Shanghai', today: '2026-11-23', earliest: null });
    return envelope(RECORDS[path] ?? { list: [], total: 0 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const mount = mountAdmin;

const REASON = '你可以查看此页面；你的角色没有修改权限。';

test('the routes whose saves need more than opening them declare the permission (issue #52)', () => {
  const declared = sections.flatMap((s) =>
    s.screens.flatMap((sc) => [
      ...(sc.editPermission ? [`/${s.path}/${sc.path}`] : []),
      ...(sc.resource?.screens ?? [])
        .filter((sub) => sub.editPermission)
        .map((sub) => `/${s.path}/${sc.path}/${sub.path}`),
    ]),
  );
  expect(declared.sort()).toEqual([
    '/ad/adplaceedit/:id?',
    '/ad/edit/:id?',
    '/ad/editBatch',
    '/agents/edit/:id?',
    '/collect/sourceEdit/:id?',
    '/movie/category',
    '/movie/sources',
    '/movie/tags',
    '/novel/category',
    '/setting/base',
    '/setting/notices',
    '/setting/promotionapp',
    '/setting/statistics',
    '/users/detail/:id',
  ]);
});

test.each([
  ['/ad/edit/41', '首页横幅素材'],
  ['/ad/adplaceedit/1', '首页横幅'],
  ['/agents/edit/1', '华东推广一部'],
])('as user, %s is read-only: the reason at the top, no save, inputs disabled', async (path, value) => {
  mount(path);
  expect(await screen.findByText(REASON)).toBeTruthy();
  await screen.findByDisplayValue(value);
  expect(
    screen.queryAllByRole('button', { name: /保存/ }).filter((b) => !(b as HTMLButtonElement).disabled),
  ).toEqual([]);
  const form = document.querySelector('form') as HTMLFormElement;
  const fieldset = form.querySelector('fieldset[disabled]');
  expect(fieldset).toBeTruthy();
  expect((screen.getByDisplayValue(value) as HTMLInputElement).matches(':disabled')).toBe(true);
});

test('as admin the same screen saves', async () => {
  role = 'admin';
  try {
    mount('/ad/adplaceedit/1');
    await screen.findByDisplayValue('首页横幅');
    expect(screen.getByRole('button', { name: /保存/ })).toBeTruthy();
    expect(screen.queryByText(REASON)).toBeNull();
  } finally {
    role = 'user';
  }
});

test('as user, the batch replacement says why preview and replace are disabled', async () => {
  mount('/ad/editBatch');
  expect(await screen.findByText(REASON)).toBeTruthy();
  const actions = screen.getByTestId('batch-actions');
  expect(actions.getAttribute('title')).toBe('你的角色无权执行此操作');
  expect((within(actions).getByRole('button', { name: '预览' }) as HTMLButtonElement).disabled).toBe(true);
  expect((within(actions).getByRole('button', { name: '替换' }) as HTMLButtonElement).disabled).toBe(true);
});
