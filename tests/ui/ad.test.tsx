// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, memoryStore } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { adState } from '../../common/ad';
import { createDataProvider } from '../../src/api/dataProvider';
import { clearUser, loadUser } from '../../src/api/session';
import { builtinPermissions } from '../../src/auth/catalog';
import { createI18nProvider } from '../../src/i18n';
import { sections } from '../../src/resources';
import { AdDaily } from '../../src/resources/ad/AdReports';
import { EditBatch } from '../../src/resources/ad/EditBatch';
import { apiPaths } from '../../src/routes/build';
import { flattenRoutes, matchRoute, menuFor, sectionRedirect } from '../../src/routes/table';
import { envelope, queryOf, type SeenRequest, stubFetch } from './api-fetch-stub';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const META = { timeZone: 'Asia/Shanghai', today: '2026-11-23', earliest: '2026-10-01' };

function api(answers: Record<string, (q: Record<string, string>, req: SeenRequest) => unknown>) {
  return stubFetch((req) => {
    const path = req.url.split('?')[0].replace(/^\/app\//, '');
    if (path === 'admin/stats/meta') return envelope(META);
    if (path === 'admin/info') return envelope({ uid: 7, account: 'admin', role: 'admin' });
    const answer = answers[path];
    return envelope(answer ? answer(queryOf(req.url), req) : { list: [], total: 0 });
  });
}

function mount(node: ReactNode, url = '/', state?: unknown) {
  return render(
    <MemoryRouter initialEntries={[{ pathname: url, state }]}>
      <AdminContext
        dataProvider={createDataProvider(apiPaths(sections))}
        i18nProvider={createI18nProvider('zh-CN')}
        store={memoryStore()}
      >
        {node}
      </AdminContext>
    </MemoryRouter>,
  );
}

test('the section declares SPEC.md’s routes, positon spelt as SPEC spells it', () => {
  const routes = flattenRoutes(sections);
  const ad = sections.find((s) => s.path === 'ad')!;
  expect(sectionRedirect(ad, builtinPermissions('user'))).toBe('/ad/list');
  expect(
    menuFor(sections, builtinPermissions('user'))
      .find((s) => s.path === '/ad')
      ?.items.map((i) => i.path),
  ).toEqual(['/ad/list', '/ad/report', '/ad/daily', '/ad/adplacelist']);
  for (const [path, active] of [
    ['/ad/edit/3', '/ad/list'],
    ['/ad/editBatch', '/ad/list'],
    ['/ad/view', '/ad/report'],
    ['/ad/advertiser', '/ad/report'],
    ['/ad/positon', '/ad/report'],
    ['/ad/adplaceedit/2', '/ad/adplacelist'],
  ])
    expect(matchRoute(routes, path), path).toMatchObject({ hideInMenu: true, activeMenu: active });
  expect(apiPaths(sections)).toMatchObject({
    'ad/list': 'admin/ad/ads',
    'ad/adplacelist': 'admin/ad/positions',
    'ad/daily': 'admin/ad/reports/daily',
    'ad/positon': 'admin/ad/reports/position',
  });
});

test('the derived state the list shows follows the schedule', () => {
  const ad = { enabled: true, startAt: '2026-06-01T00:00:00Z', endAt: '2026-06-02T00:00:00Z' };
  expect(adState(ad, new Date('2026-06-02T00:00:00Z'))).toBe('expired');
  expect(adState(ad, new Date('2026-06-01T00:00:00Z'))).toBe('live');
});

describe('reports', () => {
  const daily = () => ({
    list: [
      {
        key: '2026-11-23',
        impressions: 1200,
        clicks: 30,
        requests: 1300,
        ctr: 0.025,
        clickers: 20,
        revenue: 12.5,
        ecpm: 10.4,
        cpc: 0.4,
      },
    ],
    total: 1,
    totals: {
      impressions: 1200,
      clicks: 30,
      requests: 1300,
      ctr: 0.025,
      clickers: 20,
      revenue: 12.5,
      ecpm: 10.4,
      cpc: 0.4,
    },
    series: [],
  });

  test('a figure column hidden by the operator stays hidden for that operator', async () => {
    api({ 'admin/ad/reports/daily': daily });
    clearUser();
    await loadUser();
    const first = mount(<AdDaily />);
    await screen.findByText('2026-11-23');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('千次展示收入');
    fireEvent.click(screen.getByRole('button', { name: '显示列' }));
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: '千次展示收入' }));
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() =>
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('千次展示收入'),
    );
    first.unmount();
    mount(<AdDaily />);
    await screen.findByText('2026-11-23');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).not.toContain('千次展示收入');
    expect(headers).toContain('收入');
    expect(Object.keys(localStorage).some((k) => k.includes('.7.ad-daily'))).toBe(true);
  });
});

describe('batch replacement', () => {
  test('preview shows every row before and after and the count; applying sends the versions read; refusals keep nothing', async () => {
    const seen = api({
      'admin/ad/replace/preview': () => ({
        count: 2,
        invalid: 0,
        rows: [
          {
            id: 1,
            title: '横幅',
            before: 'https://old.example/a',
            after: 'https://new.example/a',
            version: 3,
            valid: true,
          },
          {
            id: 2,
            title: '侧栏',
            before: 'https://old.example/b',
            after: 'https://new.example/b',
            version: 1,
            valid: true,
          },
        ],
      }),
      'admin/ad/replace': () => ({ changeSet: { id: 9 } }),
      'admin/ad/changes': () => ({
        list: [
          {
            id: 9,
            operatorName: 'admin',
            mode: 'text',
            find: 'old',
            replace: 'new',
            count: 2,
            createdAt: '2026-11-23T08:00:00Z',
            rolledBackAt: null,
            rolledBackBy: null,
          },
        ],
        total: 1,
      }),
    });
    clearUser();
    await loadUser();
    mount(<EditBatch />, '/ad/editBatch', { ids: [1, 2] });
    expect(await screen.findByText('选中的 2 个素材')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: '正则表达式' }));
    // Patterns run on RE2 (linear time, so nested repetition is fine); what RE2 cannot run is refused as it is typed.
    fireEvent.change(screen.getByLabelText('查找'), { target: { value: '(a)\\1' } });
    expect(await screen.findByText('不支持反向引用（\\1）和前后断言（(?=…)、(?<=…)）')).toBeTruthy();
    expect(screen.getByRole('button', { name: '预览' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('radio', { name: '普通文本' }));
    fireEvent.change(screen.getByLabelText('查找'), { target: { value: 'old' } });
    fireEvent.change(screen.getByLabelText('替换为'), { target: { value: 'new' } });
    fireEvent.click(screen.getByRole('button', { name: '预览' }));
    expect(await screen.findByText('将修改 2 个链接')).toBeTruthy();
    expect(screen.getAllByTestId('preview-row')).toHaveLength(2);
    expect(within(screen.getAllByTestId('preview-row')[0]).getByText('https://new.example/a')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '替换' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(seen.some((r) => r.url === '/app/admin/ad/replace')).toBe(true));
    const sent = seen.find((r) => r.url === '/app/admin/ad/replace')!.body as Record<string, unknown>;
    expect(sent).toEqual({
      mode: 'text',
      find: 'old',
      replace: 'new',
      ids: [1, 2],
      versions: { 1: 3, 2: 1 },
    });
    // the history offers the rollback
    expect(await screen.findByRole('button', { name: '回滚' })).toBeTruthy();
  });

  test('a filter scope names each filter by its label and its value in words, advertiser and position by name', async () => {
    api({
      'admin/ad/changes': () => ({
        list: [
          {
            id: 9,
            operatorName: 'admin',
            mode: 'text',
            find: 'a',
            replace: 'b',
            count: 2,
            createdAt: '2026-11-20T02:00:00Z',
            rolledBackAt: null,
            rolledBackBy: null,
            scope: { filter: { advertiserId: 5, state: 'paused' }, names: { advertiserId: '旧名广告主' } },
          },
          {
            id: 8,
            operatorName: 'admin',
            mode: 'text',
            find: 'c',
            replace: 'd',
            count: 3,
            createdAt: '2026-11-19T02:00:00Z',
            rolledBackAt: null,
            rolledBackBy: null,
            scope: { ids: [1, 2, 3] },
          },
        ],
        total: 2,
      }),
      'admin/ad/positions/3': () => ({ id: 3, name: '首页横幅' }),
      'admin/ad/advertisers/4': () => ({ id: 4, name: '星辰游戏' }),
    });
    mount(<EditBatch />, '/ad/editBatch', {
      filter: { state: 'live', url: 'old', positionId: 3, advertiserId: 4 },
    });
    const chips = () => [...document.querySelectorAll('.MuiChip-label')].map((c) => c.textContent);
    await waitFor(() => expect(chips()).toContain('广告主: 星辰游戏'));
    expect(chips()).toEqual(
      expect.arrayContaining(['状态: 投放中', '落地链接包含: old', '广告位: 首页横幅']),
    );
    // the history says which ads each change set ran over, by the names saved with it
    const [first, second] = await screen.findAllByTestId('change-set');
    const chipsOf = (row: HTMLElement) =>
      [...row.querySelectorAll('.MuiChip-label')].map((c) => c.textContent);
    expect(chipsOf(first)).toEqual(expect.arrayContaining(['广告主: 旧名广告主', '状态: 已暂停']));
    expect(chipsOf(second)).toContain('选中的 3 个素材');
  });
});
