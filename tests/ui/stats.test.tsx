// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, memoryStore } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createDataProvider } from '../../src/api/dataProvider';
import { clearUser, loadUser } from '../../src/api/session';
import { builtinPermissions } from '../../src/auth/catalog';
import { createI18nProvider } from '../../src/i18n';
import { sections } from '../../src/resources';
import { MovieStats, TagStats } from '../../src/resources/statistics/ContentStats';
import { DomainHours, DomainStats } from '../../src/resources/statistics/DomainStats';
import { DomainVisitDetail, DomainVisits } from '../../src/resources/statistics/DomainVisits';
import { HotKeywords } from '../../src/resources/statistics/HotKeywords';
import { apiPaths } from '../../src/routes/build';
import { flattenRoutes, matchRoute, menuFor, sectionRedirect } from '../../src/routes/table';
import { envelope, queryOf, type SeenRequest, stubFetch } from './api-fetch-stub';

// jsdom renders of whole reports are slow on a shared machine: time is not what these tests measure.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const META = { timeZone: 'Asia/Shanghai', today: '2026-11-23', earliest: '2026-10-01' };
const empty = { list: [], total: 0, totals: {}, series: [] };

/** The API stub: the calendar, each report by its path, the pickers and the adopt action. */
function api(answers: Record<string, (q: Record<string, string>, req: SeenRequest) => unknown>) {
  return stubFetch((req) => {
    const path = req.url.split('?')[0].replace(/^\/app\//, '');
    if (path === 'admin/stats/meta') return envelope(META);
    const answer = answers[path];
    return envelope(answer ? answer(queryOf(req.url), req) : empty);
  });
}
const calls = (seen: SeenRequest[], path: string) =>
  seen.filter((r) => r.url.split('?')[0] === `/app/${path}`).map((r) => queryOf(r.url));

function mount(node: ReactNode, url = '/', locale: 'zh-CN' | 'en-US' = 'zh-CN') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <AdminContext
        dataProvider={createDataProvider(apiPaths(sections))}
        i18nProvider={createI18nProvider(locale)}
        store={memoryStore()}
      >
        {node}
      </AdminContext>
    </MemoryRouter>,
  );
}

test('the section declares SPEC.md’s routes: /stats goes to hot keywords, details are hidden under their list', () => {
  const routes = flattenRoutes(sections);
  const stats = sections.find((s) => s.path === 'stats')!;
  expect(sectionRedirect(stats, builtinPermissions('user'))).toBe('/stats/hotkeyword');
  expect(
    menuFor(sections, builtinPermissions('user'))
      .find((s) => s.path === '/stats')
      ?.items.map((i) => i.path),
  ).toEqual(['/stats/hotkeyword', '/stats/movies', '/stats/tags', '/stats/domains', '/stats/domainsvisit']);
  expect(matchRoute(routes, '/stats/domains/detail')).toMatchObject({
    hideInMenu: true,
    activeMenu: '/stats/domains',
    locale: 'resources.stats.menu.domainDetail',
  });
  expect(matchRoute(routes, '/stats/domainsvisit/detail')).toMatchObject({
    hideInMenu: true,
    activeMenu: '/stats/domainsvisit',
  });
  expect(apiPaths(sections)).toMatchObject({
    'stats/hotkeyword': 'admin/stats/reports/keywords',
    'stats/movies': 'admin/stats/reports/movies',
    'stats/tags': 'admin/stats/reports/tags',
    'stats/unseen': 'admin/stats/reports/unseen',
    'stats/domains': 'admin/stats/reports/domains',
    'stats/domains/detail': 'admin/stats/reports/domain-hours',
    'stats/domainsvisit': 'admin/stats/reports/domains',
    'stats/domainsvisit/detail': 'admin/stats/reports/visits',
  });
});

describe('hot keywords', () => {
  const keywords = (q: Record<string, string>) =>
    q.zeroOnly === 'true'
      ? {
          list: [{ key: '不存在的片', searches: 7, searchers: 5, avgResults: 0, zeroResults: 7 }],
          total: 1,
          totals: { searches: 7, searchers: 5 },
          series: [],
        }
      : {
          list: [
            { key: '仙侠', searches: 40, searchers: 30, avgResults: 12.5, zeroResults: 0 },
            { key: '不存在的片', searches: 7, searchers: 5, avgResults: 0, zeroResults: 7 },
            { key: '古装', searches: 9, searchers: 8, avgResults: 3, zeroResults: 2 },
          ],
          total: 3,
          totals: { searches: 56, searchers: 40, avgResults: 9.9, zeroResults: 9 },
          series: [],
        };

  test('figures per keyword; zero-result keywords are flagged', async () => {
    const seen = api({ 'admin/stats/reports/keywords': keywords });
    mount(<HotKeywords />);
    const zero = (await screen.findByText('不存在的片')).closest('tr')!;
    expect(within(zero).getByText('无结果').closest('[title]')?.getAttribute('title')).toBe(
      '该词的搜索全部没有结果',
    );
    expect(within(screen.getByText('古装').closest('tr')!).getByText('2 次无结果')).toBeTruthy();
    expect(within(screen.getByText('仙侠').closest('tr')!).queryByText(/无结果/)).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '关键词',
      '搜索次数',
      '搜索人数',
      '平均结果数',
      '无结果次数',
    ]);
    expect(within(screen.getByText('仙侠').closest('tr')!).getAllByRole('cell')[2].textContent).toMatch(
      /^12\.5/,
    );
    expect(calls(seen, 'admin/stats/reports/keywords')[0]).toMatchObject({ sort: 'searches', order: 'desc' });
    expect(calls(seen, 'admin/stats/reports/keywords')[0].zeroOnly).toBeUndefined();
  });

  test('the demand gap lists zero-result keywords; “add as alias/tag” picks an actress and calls adopt', async () => {
    const seen = api({
      'admin/stats/reports/keywords': keywords,
      'admin/movie/movies': () => ({ list: [{ id: 3, title: '长安十二时辰' }], total: 1 }),
      'admin/actresses': (q) => ({
        list:
          q.q === '林'
            ? [{ id: 42, name: '林小美' }]
            : [
                { id: 41, name: '王芳' },
                { id: 42, name: '林小美' },
              ],
        total: 2,
      }),
      'admin/stats/keywords/adopt': () => ({ keyword: '不存在的片' }),
      'admin/info': () => ({ uid: 1, account: 'admin', role: 'admin' }),
    });
    clearUser();
    await loadUser();
    mount(<HotKeywords />);
    await screen.findByText('仙侠');
    fireEvent.click(screen.getByRole('tab', { name: '需求缺口' }));
    await waitFor(() =>
      expect(calls(seen, 'admin/stats/reports/keywords').at(-1)).toMatchObject({ zeroOnly: 'true' }),
    );
    fireEvent.click(await screen.findByRole('button', { name: '把「不存在的片」加为别名或标签…' }));
    const dialog = await screen.findByRole('dialog', { name: '把「不存在的片」加到内容上' });
    expect(within(dialog).getByRole('button', { name: '添加' })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('radio', { name: '女优（作为别名）' }));
    const box = within(dialog).getByRole('combobox', { name: '选择内容' });
    fireEvent.change(box, { target: { value: '林' } });
    await waitFor(() =>
      expect(calls(seen, 'admin/actresses').at(-1)).toMatchObject({ q: '林', pageSize: '10' }),
    );
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.click(await screen.findByRole('option', { name: '林小美' }));
    fireEvent.click(within(dialog).getByRole('button', { name: '添加' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const adopt = seen.find((r) => r.url === '/app/admin/stats/keywords/adopt')!;
    expect(adopt.method).toBe('POST');
    expect(adopt.body).toEqual({ keyword: '不存在的片', target: 'actress', id: 42, as: 'alias' });
    // a movie takes it as a tag
    fireEvent.click(screen.getByRole('button', { name: '把「不存在的片」加为别名或标签…' }));
    const again = await screen.findByRole('dialog');
    const movieBox = within(again).getByRole('combobox', { name: '选择内容' });
    fireEvent.keyDown(movieBox, { key: 'ArrowDown' });
    fireEvent.click(await screen.findByRole('option', { name: '长安十二时辰' }));
    fireEvent.click(within(again).getByRole('button', { name: '添加' }));
    await waitFor(() =>
      expect(seen.filter((r) => r.url === '/app/admin/stats/keywords/adopt')).toHaveLength(2),
    );
    expect(seen.filter((r) => r.url === '/app/admin/stats/keywords/adopt')[1].body).toEqual({
      keyword: '不存在的片',
      target: 'movie',
      id: 3,
      as: 'tag',
    });
  });

  test('the demand gap offers adoption to admins only (the API refuses others)', async () => {
    api({
      'admin/stats/reports/keywords': keywords,
      'admin/info': () => ({ uid: 2, account: 'op', role: 'user' }),
    });
    clearUser();
    await loadUser();
    mount(<HotKeywords />);
    await screen.findByText('仙侠');
    fireEvent.click(screen.getByRole('tab', { name: '需求缺口' }));
    await waitFor(() => expect(screen.queryByText('仙侠')).toBeNull());
    await screen.findByText('不存在的片');
    expect(screen.queryByRole('button', { name: /加为别名或标签/ })).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '关键词',
      '搜索次数',
      '搜索人数',
    ]);
  });
});

test.each([
  ['movies', MovieStats, 'movie', '视频'],
  ['tags', TagStats, 'tag', '标签'],
] as const)('%s: views, plays, viewers, play rate; the not-seen tab lists online content', async (report, Screen, type, column) => {
  const seen = api({
    [`admin/stats/reports/${report}`]: () => ({
      list: [{ key: '7', label: '第七号', views: 100, plays: 25, viewers: 60, playRate: 0.25 }],
      total: 1,
      totals: { views: 100, plays: 25, viewers: 60, playRate: 0.25 },
      series: [],
    }),
    'admin/stats/reports/unseen': () => ({
      list: [{ key: '9', label: '冷门', publishedAt: '2026-11-01T02:00:00.000Z' }],
      total: 1,
    }),
  });
  mount(<Screen />);
  const row = (await screen.findByText('第七号')).closest('tr')!;
  expect(
    within(row)
      .getAllByRole('cell')
      .map((c) => c.firstChild?.textContent),
  ).toEqual(['100', '25', '60', '25.0%']);
  expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
    column,
    '浏览量',
    '播放量',
    '播放人数',
    '播放率',
  ]);
  // each figure says what it counts (issue #52: 观看人数 above 浏览量 read as a fault)
  expect(
    screen.getByTitle('播放过的不同访客数（按访客去重，只看页面未播放的不计；估算，误差约 1%）').textContent,
  ).toBe('播放人数');
  expect(screen.getByTitle('播放量 ÷ 浏览量').textContent).toBe('播放率');
  fireEvent.click(screen.getByRole('tab', { name: '本时段无人浏览' }));
  expect(await screen.findByText('冷门')).toBeTruthy();
  // a tag never goes online: no such column for tags
  expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(
    type === 'movie' ? [column, '上线时间'] : [column],
  );
  expect(calls(seen, 'admin/stats/reports/unseen').at(-1)).toMatchObject({
    type,
    from: '2026-11-17',
    to: '2026-11-23',
  });
  expect(calls(seen, 'admin/stats/reports/unseen').at(-1)?.compare).toBeUndefined();
  expect(screen.queryByRole('switch')).toBeNull();
});

test.each([
  ['movies', MovieStats, '本时段所有上线视频都有人浏览'],
  ['tags', TagStats, '本时段所有标签都有人浏览'],
] as const)('%s: nothing unseen says so of its own kind', async (report, Screen, text) => {
  api({
    [`admin/stats/reports/${report}`]: () => ({ list: [], total: 0, totals: {}, series: [] }),
    'admin/stats/reports/unseen': () => ({ list: [], total: 0 }),
  });
  mount(<Screen />);
  fireEvent.click(await screen.findByRole('tab', { name: '本时段无人浏览' }));
  expect(await screen.findByText(text)).toBeTruthy();
});

test('domains: per-domain figures; a row opens the domain hour by hour, and its visits', async () => {
  api({
    'admin/stats/reports/domains': () => ({
      list: [
        {
          key: 'a.example.com',
          pageViews: 500,
          visitors: 120,
          addresses: 90,
          newVisitors: 30,
          bounceRate: 0.4,
        },
      ],
      total: 1,
      totals: { pageViews: 500, visitors: 120, addresses: 90, newVisitors: 30, bounceRate: 0.4 },
      series: [],
    }),
  });
  mount(<DomainStats />, '/stats/domains', 'en-US');
  const link = await screen.findByRole('link', { name: 'a.example.com' });
  expect(link.getAttribute('href')).toBe('/stats/domains/detail?domain=a.example.com');
  expect(screen.getByRole('link', { name: 'Visits of a.example.com' }).getAttribute('href')).toBe(
    '/stats/domainsvisit/detail?domain=a.example.com',
  );
  expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
    'Domain',
    'Page views',
    'Unique visitors',
    'Addresses',
    'New visitors',
    'Bounce rate',
    'Actions',
  ]);
});

test('domain detail: one domain by hour, sorted by any figure, back to the list; without a domain it says so', async () => {
  const seen = api({
    'admin/stats/reports/domain-hours': () => ({
      list: [
        {
          key: '2026-11-23 09:00',
          pageViews: 10,
          visitors: 4,
          addresses: 4,
          newVisitors: 1,
          bounceRate: 0.5,
        },
      ],
      total: 1,
      totals: { pageViews: 10, visitors: 4, addresses: 4, newVisitors: 1, bounceRate: 0.5 },
      series: [],
    }),
  });
  mount(<DomainHours />, '/stats/domains/detail?domain=a.example.com');
  expect(await screen.findByText('2026-11-23 09:00')).toBeTruthy();
  expect(screen.getByRole('heading', { name: '域名：a.example.com' })).toBeTruthy();
  expect(screen.getByRole('link', { name: '全部域名' }).getAttribute('href')).toBe('/stats/domains');
  expect(calls(seen, 'admin/stats/reports/domain-hours')[0]).toMatchObject({ domain: 'a.example.com' });
  // every hour comes at once (the screen pages them: report-list.test.tsx), the latest first, and any figure sorts
  // them: the busiest hour first
  expect(screen.getByText('第 1-1 条，共 1 条')).toBeTruthy();
  expect(calls(seen, 'admin/stats/reports/domain-hours')[0]).toMatchObject({ sort: 'key', order: 'desc' });
  fireEvent.click(screen.getByRole('button', { name: /浏览量/ }));
  await waitFor(() =>
    expect(calls(seen, 'admin/stats/reports/domain-hours').at(-1)).toMatchObject({
      sort: 'pageViews',
      order: 'desc',
    }),
  );
  cleanup();
  mount(<DomainHours />, '/stats/domains/detail');
  expect(await screen.findByText('没有选择域名。')).toBeTruthy();
});

test('domain visits: device classes, what was not known and no channel are words of the operator’s language', async () => {
  const keys: Record<string, string[]> = {
    device: ['mobile', 'desktop', 'unknown'],
    region: ['广东省', 'unknown'],
    channel: ['agent7', ''],
  };
  api({
    'admin/stats/reports/visits': (q) => ({
      list: (keys[q.dimension] ?? ['/']).map((key) => ({ key, pageViews: 1, visitors: 1, share: 0.5 })),
      total: (keys[q.dimension] ?? ['/']).length,
      totals: { pageViews: 2, visitors: 2, share: 1 },
      series: [],
    }),
  });
  mount(<DomainVisitDetail />, '/stats/domainsvisit/detail?domain=b.example.com', 'en-US');
  await screen.findByRole('rowheader', { name: '/' });
  fireEvent.click(screen.getByRole('tab', { name: 'Device' }));
  await screen.findByText('Mobile');
  expect(screen.getByText('Desktop')).toBeTruthy();
  expect(screen.getByText('(unknown)')).toBeTruthy();
  expect(screen.queryByText('mobile')).toBeNull();
  fireEvent.click(screen.getByRole('tab', { name: 'Region' }));
  await screen.findByText('广东省');
  expect(screen.getByText('(unknown)')).toBeTruthy();
  fireEvent.click(screen.getByRole('tab', { name: 'Channel' }));
  await screen.findByText('agent7');
  expect(screen.getByText('(no channel)')).toBeTruthy();
  cleanup();
  mount(<DomainVisitDetail />, '/stats/domainsvisit/detail?domain=b.example.com');
  await screen.findByRole('rowheader', { name: '/' });
  fireEvent.click(screen.getByRole('tab', { name: '设备' }));
  await screen.findByText('手机');
  expect(screen.getByText('电脑')).toBeTruthy();
  expect(screen.getByText('（未知）')).toBeTruthy();
});

test('domain visits: pick a domain; its paths, referrers, devices, regions and channels with their share', async () => {
  const seen = api({
    'admin/stats/reports/domains': () => ({
      list: [{ key: 'b.example.com', pageViews: 80, visitors: 20 }],
      total: 1,
      totals: { pageViews: 80, visitors: 20 },
      series: [],
    }),
    'admin/stats/reports/visits': (q) => ({
      list: [
        {
          key: q.dimension === 'referrer' ? '' : `/${q.dimension}/1`,
          pageViews: 60,
          visitors: 15,
          share: 0.75,
        },
        { key: `${q.dimension}-2`, pageViews: 20, visitors: 5, share: 0.25 },
      ],
      total: 2,
      totals: { pageViews: 80, visitors: 20, share: 1 },
      series: [],
    }),
  });
  mount(<DomainVisits />, '/stats/domainsvisit');
  expect((await screen.findByRole('link', { name: 'b.example.com' })).getAttribute('href')).toBe(
    '/stats/domainsvisit/detail?domain=b.example.com',
  );
  cleanup();
  mount(<DomainVisitDetail />, '/stats/domainsvisit/detail?domain=b.example.com');
  const row = (await screen.findByText('/path/1')).closest('tr')!;
  expect(
    within(row)
      .getAllByRole('cell')
      .map((c) => c.firstChild?.textContent),
  ).toEqual(['60', '15', '75.0%']);
  expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
    '页面路径',
    '来源',
    '设备',
    '地区',
    '渠道',
  ]);
  for (const [tab, dimension] of [
    ['来源', 'referrer'],
    ['设备', 'device'],
    ['地区', 'region'],
    ['渠道', 'channel'],
  ]) {
    fireEvent.click(screen.getByRole('tab', { name: tab }));
    await waitFor(() =>
      expect(calls(seen, 'admin/stats/reports/visits').at(-1)).toMatchObject({
        domain: 'b.example.com',
        dimension,
      }),
    );
    await screen.findByText(`${dimension}-2`);
    if (dimension === 'referrer') expect(screen.getByText('（直接访问）')).toBeTruthy();
  }
});
