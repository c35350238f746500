// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, ResourceContextProvider, testDataProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearUser, loadUser } from '../../src/api/session';
import { getSystemSettings } from '../../src/api/system';
import { createI18nProvider } from '../../src/i18n';
import { BaseSettings, removedKeys } from '../../src/resources/setting/base/BaseSettings';
import { nextKey, uniqueKeys } from '../../src/resources/setting/base/PlatformsInput';
import { MarqueePreview, PopupPreview } from '../../src/resources/setting/notices/NoticePreview';
import { AppList, moveId } from '../../src/resources/setting/promotionapp/AppList';
import {
  StatisticsSettings,
  snippetRows,
  snippetsToSave,
} from '../../src/resources/setting/statistics/StatisticsSettings';
import { envelope, type SeenRequest } from './api-fetch-stub';
import { ScreenCss, screenTheme, warmUpScreens } from './warm-up';

/** Issue #5 in the admin: base settings (removal asks, read-only for users), safe previews, reordering. */

const PLATFORMS = [
  { key: 2, name: '樱桃' },
  { key: 1, name: '1号站' },
  { key: 4, name: '樱花' },
];
let settings: Record<string, unknown>;
let seen: SeenRequest[];
let role: 'admin' | 'user';
let routes: Record<string, (req: SeenRequest) => unknown>;

function route(req: SeenRequest): Response {
  const path = new URL(req.url, 'http://x').pathname.replace(/^\/app\//, '');
  const handler = routes[`${req.method} ${path}`];
  if (!handler) return envelope(null, 40400, `no stub for ${req.method} ${path}`);
  return envelope(handler(req));
}

beforeEach(async () => {
  settings = { tenant: 2, version: 3, imgdomain: '', platforms: PLATFORMS, legacy: 'kept' };
  role = 'admin';
  seen = [];
  routes = {
    'GET admin/info': () => ({ uid: 1, account: 'admin', nickname: '', role }),
    'GET admin/sys/getSetting': () => settings,
    'POST admin/sys/updateSetting': (req) => {
      const { version: _v, ...rest } = req.body as Record<string, unknown>;
      settings = { ...settings, ...rest, version: (settings.version as number) + 1 };
      return settings;
    },
    'GET admin/setting/platform-usage': () => ({
      usage: [{ key: 4, movies: 3, notices: 2, apps: 0, snippets: 0, total: 5 }],
    }),
    'GET admin/setting/site-key': () => ({ key: 'sk_test', updatedAt: null }),
    'GET admin/upload/cipher': () => ({ key: '00', iv: '00', maxBytes: 1000 }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const req: SeenRequest = {
        url: String(url),
        method: init.method ?? 'GET',
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      };
      seen.push(req);
      return route(req);
    }),
  );
  localStorage.setItem('token', 't');
  localStorage.setItem('uid', '1');
  clearUser();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

warmUpScreens();

function wrap(children: ReactNode, dataProvider = testDataProvider()) {
  return render(
    <ScreenCss>
      <MemoryRouter>
        <AdminContext
          dataProvider={dataProvider}
          i18nProvider={createI18nProvider('zh-CN')}
          theme={screenTheme}
        >
          {children}
        </AdminContext>
      </MemoryRouter>
    </ScreenCss>,
  );
}

const calls = (method: string, path: string) =>
  seen.filter((r) => r.method === method && new URL(r.url, 'http://x').pathname === `/app/${path}`);

test('removing a platform that content uses asks first, saying how much; cancel keeps it, confirm saves', async () => {
  await loadUser();
  wrap(<BaseSettings />);
  await screen.findByDisplayValue('樱花');
  // The third row (樱花) has its own remove button (react-admin shows them on hover: hidden to the query).
  const remove = await waitFor(() => document.querySelector<HTMLElement>('.button-remove-platforms-2')!);
  expect(remove.getAttribute('aria-label')).toBe('移除');
  fireEvent.click(remove);
  await waitFor(() => expect(screen.queryByDisplayValue('樱花')).toBeNull());
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  const dialog = await screen.findByRole('dialog', { name: '删除仍在使用的平台？' });
  expect(dialog.textContent).toContain('樱花 (4)');
  expect(dialog.textContent).toContain('3 部影片，2 条公告');
  expect(calls('GET', 'admin/setting/platform-usage')[0].url).toContain('keys=4');
  fireEvent.click(within(dialog).getByRole('button', { name: '取消' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(0);

  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  fireEvent.click(await screen.findByRole('button', { name: '仍然删除' }));
  await waitFor(() => expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(1));
  const body = calls('POST', 'admin/sys/updateSetting')[0].body as Record<string, unknown>;
  expect(body.version).toBe(3);
  expect(body.platforms).toEqual([
    { key: 2, name: '樱桃' },
    { key: 1, name: '1号站' },
  ]);
  expect(body).not.toHaveProperty('legacy'); // other fields are kept by the server, not resent
  expect(body).not.toHaveProperty('platformMap');
  // The system store follows without a reload: the platform map no longer has 4.
  await waitFor(() => expect(getSystemSettings()?.platformMap).toEqual({ 2: '樱桃', 1: '1号站' }));
});

test('renaming a platform (nothing removed) saves without asking; other stored fields are shown', async () => {
  await loadUser();
  wrap(<BaseSettings />);
  const name = await screen.findByDisplayValue('1号站');
  fireEvent.change(name, { target: { value: '一号站' } });
  expect(screen.getByText('legacy')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  await waitFor(() => expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(1));
  expect(calls('GET', 'admin/setting/platform-usage')).toHaveLength(0);
  await waitFor(() => expect(getSystemSettings()?.platformMap['1']).toBe('一号站'));
});

test("the operators' time zone: Asia/Shanghai until saved; another one chosen is saved with the rest", async () => {
  await loadUser();
  wrap(<BaseSettings />);
  const zone = await screen.findByRole('combobox', { name: /运营时区/ });
  expect((zone as HTMLInputElement).value).toBe('Asia/Shanghai');
  fireEvent.change(zone, { target: { value: 'Europe/Ber' } });
  fireEvent.click(await screen.findByRole('option', { name: 'Europe/Berlin' }));
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  await waitFor(() => expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(1));
  expect(calls('POST', 'admin/sys/updateSetting')[0].body).toMatchObject({ timeZone: 'Europe/Berlin' });
  // a zone saved earlier that this browser does not list is still shown as it is
  cleanup();
  settings = { ...settings, timeZone: 'Etc/GMT-14' };
  wrap(<BaseSettings />);
  expect(((await screen.findByRole('combobox', { name: /运营时区/ })) as HTMLInputElement).value).toBe(
    'Etc/GMT-14',
  );
});

test("platform rows: move and remove visible without hover; saved keys read-only, a new row's key typed", async () => {
  await loadUser();
  wrap(<BaseSettings />);
  await screen.findByDisplayValue('樱花');
  const remove = await waitFor(() => document.querySelector<HTMLElement>('.button-remove-platforms-2')!);
  // react-admin hides a row's actions until the pointer hovers it: keyboard and touch users must see them.
  const actions = remove.closest<HTMLElement>('.RaSimpleFormIterator-action')!;
  expect(getComputedStyle(actions).visibility).toBe('visible');
  const keys = () => screen.getAllByRole('spinbutton', { name: /^键/ }) as HTMLInputElement[];
  expect(keys().map((k) => [k.value, k.readOnly])).toEqual([
    ['2', true],
    ['1', true],
    ['4', true],
  ]);
  fireEvent.click(screen.getByRole('button', { name: '添加' }));
  await waitFor(() => expect(keys()).toHaveLength(4));
  expect(keys()[3].readOnly).toBe(false);
  expect(keys()[3].value).toBe('5');
});

test('issue #48: the internal hosts allowed are edited one a line, checked, and saved as a list', async () => {
  await loadUser();
  settings = { ...settings, outboundAllow: ['10.0.0.0/8'] };
  wrap(<BaseSettings />);
  const box = await screen.findByRole('textbox', { name: '允许访问的内部主机' });
  expect((box as HTMLTextAreaElement).value).toBe('10.0.0.0/8');
  fireEvent.change(box, { target: { value: '10.0.0.0/8\n  *.svc.cluster.local \n\n10.0.0.0/99' } });
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findByText('“10.0.0.0/99”不是主机名、IP 地址或 CIDR 网段')).toBeTruthy();
  expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(0);
  fireEvent.change(box, { target: { value: '10.0.0.0/8\n  *.svc.cluster.local \n\n' } });
  await waitFor(() => expect(screen.queryByText(/不是主机名/)).toBeNull());
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  await waitFor(() => expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(1));
  expect(calls('POST', 'admin/sys/updateSetting')[0].body).toMatchObject({
    outboundAllow: ['10.0.0.0/8', '*.svc.cluster.local'],
  });
});

test("the site server's secret: made on confirm, shown once, never read back; rotating asks first", async () => {
  routes['POST admin/setting/site-key/secret'] = () => ({
    secret: 'ss_once_only_secret',
    secretUpdatedAt: '2026-06-01T08:00:00.000Z',
  });
  await loadUser();
  wrap(<BaseSettings />);
  expect(await screen.findByText('尚未生成：在生成之前，充值、注册和会员发帖都会被拒绝。')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '生成服务器密钥' }));
  fireEvent.click(await screen.findByRole('button', { name: '确认' }));
  expect((await screen.findByTestId('site-secret')).textContent).toBe('ss_once_only_secret');
  expect(calls('POST', 'admin/setting/site-key/secret')).toHaveLength(1);
  // Closed: gone for good, only when it was made is said; the next one asks before the old one stops.
  fireEvent.click(screen.getByRole('button', { name: /close|关闭/i }));
  await waitFor(() => expect(screen.queryByTestId('site-secret')).toBeNull());
  expect(screen.getByTestId('site-secret-state').textContent).toMatch(/^当前密钥生成于/);
  fireEvent.click(screen.getByRole('button', { name: '更换服务器密钥' }));
  expect(await screen.findByText(/当前服务器密钥将立即失效/)).toBeTruthy();
});

test('a user sees the base settings read-only: no save, no site key, disabled inputs', async () => {
  role = 'user';
  await loadUser();
  wrap(<BaseSettings />);
  expect(await screen.findByText('你可以查看这些设置；你的角色没有修改权限。')).toBeTruthy();
  expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
  expect((screen.getByDisplayValue('樱花') as HTMLInputElement).disabled).toBe(true);
  expect(screen.queryByText('站点密钥')).toBeNull();
  expect(calls('GET', 'admin/setting/site-key')).toHaveLength(0);
});

test('the MacCMS resource API: closed until switched on; the URL to give follows the key; both are saved', async () => {
  await loadUser();
  wrap(<BaseSettings />);
  expect(await screen.findByText('未开放：该地址回答“未找到”。')).toBeTruthy();
  expect(screen.queryByTestId('provide-url')).toBeNull();
  fireEvent.click(screen.getByLabelText('向 MacCMS 采集开放资源'));
  const url = await screen.findByTestId('provide-url');
  expect(url.textContent).toBe(`${window.location.origin}/api.php/provide/vod/`);
  fireEvent.change(screen.getByRole('textbox', { name: /接口密钥/ }), { target: { value: 'bad key' } });
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findByText('只能用字母、数字、- 和 _')).toBeTruthy();
  fireEvent.change(screen.getByRole('textbox', { name: /接口密钥/ }), { target: { value: 'k-1' } });
  await waitFor(() =>
    expect(screen.getByTestId('provide-url').textContent).toBe(
      `${window.location.origin}/api.php/provide/vod/?key=k-1`,
    ),
  );
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  await waitFor(() => expect(calls('POST', 'admin/sys/updateSetting')).toHaveLength(1));
  expect(calls('POST', 'admin/sys/updateSetting')[0].body).toMatchObject({
    provideOpen: true,
    provideKey: 'k-1',
  });
});

test('a user sees whether the resource API is open, never its key', async () => {
  role = 'user';
  settings = { ...settings, provideOpen: true };
  await loadUser();
  wrap(<BaseSettings />);
  expect((await screen.findByTestId('provide-url')).textContent).toBe(
    `${window.location.origin}/api.php/provide/vod/`,
  );
  expect(screen.queryByRole('textbox', { name: /接口密钥/ })).toBeNull();
});

test('the pop-up preview shows sanitized HTML: nothing runs, no javascript: link, http(s) links open apart', () => {
  wrap(
    <PopupPreview
      title="t"
      content={
        '<p>hi <a href="javascript:alert(1)">x</a> <a href="https://ok.example">ok</a></p><script>window.__ran=1</script><img src=x onerror="window.__ran=1">'
      }
    />,
  );
  const body = screen.getByTestId('popup-body');
  expect(body.querySelector('script, img')).toBeNull();
  const links = [...body.querySelectorAll('a')];
  expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://ok.example']);
  expect(links[0].getAttribute('rel')).toContain('noopener');
  expect((window as any).__ran).toBeUndefined();
});

test('the marquee preview scrolls the text as plain text (markup shows as typed)', () => {
  wrap(<MarqueePreview text="今晚 <b>维护</b>" />);
  const track = screen.getByTestId('marquee-track');
  expect(track.textContent).toBe('今晚 <b>维护</b>');
  expect(track.querySelector('b')).toBeNull();
  expect(screen.getByRole('img', { name: /今晚/ })).toBeTruthy();
});

test('statistics snippets are shown to a user as text: no script element is created', async () => {
  role = 'user';
  await loadUser();
  routes['GET admin/setting/statistics'] = () => ({
    tenant: 2,
    version: 1,
    events: { pageView: true, play: true, search: false, adImpression: true, adClick: true, tagClick: true },
    sampleRate: 50,
    rawRetentionDays: 30,
    snippets: [{ platform: 2, code: '<script>window.__ran2=1</script>' }],
  });
  wrap(<StatisticsSettings />);
  expect(await screen.findByText('<script>window.__ran2=1</script>')).toBeTruthy();
  expect(document.querySelector('script')).toBeNull();
  expect((window as any).__ran2).toBeUndefined();
  expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
});

test('stuck statistics days: an admin sees each with its error and retries them; a user is not asked', async () => {
  let stuck = [
    {
      day: '2026-05-30',
      error: 'check constraint "x" is violated',
      failedAt: '2026-06-01T08:00:00Z',
      attempts: 3,
    },
  ];
  routes['GET admin/setting/statistics'] = () => ({
    tenant: 2,
    version: 1,
    events: { pageView: true, play: true, search: true, adImpression: true, adClick: true, tagClick: true },
    sampleRate: 100,
    rawRetentionDays: 30,
    attributionDays: 30,
    snippets: [],
  });
  routes['GET admin/stats/stuck'] = () => ({ list: stuck });
  routes['POST admin/stats/rollup'] = () => {
    stuck = [];
    return { ran: true, days: 1, droppedPartitions: 0 };
  };
  await loadUser();
  wrap(<StatisticsSettings />);
  expect(await screen.findByText('1 天的统计汇总失败')).toBeTruthy();
  expect(screen.getByText('2026-05-30')).toBeTruthy();
  expect(screen.getByText('check constraint "x" is violated')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '立即重试' }));
  await waitFor(() => expect(screen.queryByText('1 天的统计汇总失败')).toBeNull());
  expect(calls('POST', 'admin/stats/rollup')).toHaveLength(1);
  expect(calls('GET', 'admin/stats/stuck')).toHaveLength(2);

  cleanup();
  role = 'user';
  clearUser();
  await loadUser();
  seen.length = 0;
  wrap(<StatisticsSettings />);
  await screen.findByText('你可以查看这些设置；你的角色没有修改权限。');
  expect(calls('GET', 'admin/stats/stuck')).toHaveLength(0);
});

test('promotion apps: typing a new position saves the whole order at once', async () => {
  await loadUser();
  routes['POST admin/setting/promotion-apps/reorder'] = () => ({ changed: 3 });
  const apps = [1, 2, 3].map((id) => ({
    id,
    name: `app${id}`,
    icon: '',
    url: `https://a${id}.example`,
    os: 'android',
    platforms: [2],
    sort: id,
    enabled: true,
    version: 1,
  }));
  const dataProvider = testDataProvider({
    getList: async () => ({ data: apps, total: 3 }) as never,
  });
  wrap(
    <ResourceContextProvider value="setting/promotionapp">
      <AppList />
    </ResourceContextProvider>,
    dataProvider,
  );
  const input = await screen.findByRole('spinbutton', { name: 'app3 的位置' });
  fireEvent.change(input, { target: { value: '1' } });
  fireEvent.keyDown(input, { key: 'Enter' });
  await waitFor(() => expect(calls('POST', 'admin/setting/promotion-apps/reorder')).toHaveLength(1));
  expect(calls('POST', 'admin/setting/promotion-apps/reorder')[0].body).toEqual({ ids: [3, 1, 2] });
});

test('pure rules: moves, removed keys, next key, duplicate keys, snippet rows', () => {
  expect(moveId([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
  expect(moveId([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
  expect(moveId([1, 2, 3], 0, 99)).toEqual([2, 3, 1]);
  expect(removedKeys(PLATFORMS, [{ key: 2, name: 'x' }])).toEqual([1, 4]);
  expect(nextKey([{ key: 2 }, { key: 6 }, undefined])).toBe(7);
  expect(nextKey([])).toBe(1);
  expect(uniqueKeys([{ key: 1 }, { key: 1 }])).toBeTruthy();
  expect(uniqueKeys([{ key: 1 }, { key: 2 }, { key: null }])).toBeUndefined();
  const rows = snippetRows(
    [
      { platform: 4, code: 'a' },
      { platform: 9, code: 'gone' },
    ],
    PLATFORMS,
  );
  expect(rows).toEqual([
    { platform: 2, code: '' },
    { platform: 1, code: '' },
    { platform: 4, code: 'a' },
  ]);
  expect(
    snippetsToSave([...rows.slice(0, 2), { platform: 4, code: '  ' }], [{ platform: 9, code: 'gone' }]),
  ).toEqual([{ platform: 9, code: 'gone' }]);
});
