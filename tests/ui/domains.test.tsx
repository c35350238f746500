// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, testDataProvider } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { normalizeHostname, parsePaste, runwayDays } from '../../common/domain';
import { createI18nProvider } from '../../src/i18n';
import { Carousel } from '../../src/resources/domain/Carousel';
import { ConfigList } from '../../src/resources/domain/ConfigList';
import { localProblems, StoreAdd } from '../../src/resources/domain/StoreAdd';
import { envelope, type SeenRequest } from './api-fetch-stub';
import { warmUpScreens } from './warm-up';

/** Issue #15 in the admin: the store's paste box reports bad and repeated lines before anything is sent. */

warmUpScreens();

let seen: SeenRequest[];
let importAnswer: (body: any) => Response;
let carouselAnswer: () => Response = () => envelope({ pools: [], perPool: 100 });
let channelsAnswer: (query: URLSearchParams) => Response = () => envelope({ list: [], total: 0 });

beforeEach(() => {
  seen = [];
  importAnswer = () => envelope(null);
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
      const path = new URL(req.url, 'http://x').pathname;
      if (path === '/app/admin/domain/pools')
        return envelope({ list: [{ id: 5, name: '主池', note: '', version: 1 }], total: 1 });
      if (path === '/app/admin/domain/domains/import') return importAnswer(req.body);
      if (path === '/app/admin/domain/overview/carousel') return carouselAnswer();
      if (path === '/app/admin/domain/config/channels')
        return channelsAnswer(new URL(req.url, 'http://x').searchParams);
      return envelope(null, 40400, 'no stub');
    }),
  );
  localStorage.setItem('token', 't');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function wrap(children: ReactNode) {
  return render(
    <MemoryRouter>
      <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider('zh-CN')}>
        {children}
      </AdminContext>
    </MemoryRouter>,
  );
}

test('hostname rules shared with the API: IDN to ASCII, wildcards, IP literals, labels', () => {
  expect(normalizeHostname('WWW.例子.中国.')).toEqual({ host: 'www.xn--fsqu00a.xn--fiqs8s' });
  expect(normalizeHostname('https://Promo.Example.com/path?x=1')).toEqual({ host: 'promo.example.com' });
  expect(normalizeHostname('*.a.com')).toEqual({ error: 'wildcard' });
  expect(normalizeHostname('10.0.0.1')).toEqual({ error: 'ip' });
  expect(normalizeHostname('2130706433')).toEqual({ error: 'ip' });
  expect(normalizeHostname('[2001:db8::1]')).toEqual({ error: 'ip' });
  expect(normalizeHostname('localhost')).toEqual({ error: 'single' });
  expect(normalizeHostname('a_b.com')).toEqual({ error: 'label' });
  expect(
    normalizeHostname(
      `${'x'.repeat(60)}.${'y'.repeat(60)}.${'z'.repeat(60)}.${'w'.repeat(60)}.${'v'.repeat(60)}.com`,
    ),
  ).toEqual({
    error: 'tooLong',
  });
  expect(runwayDays(20, 60)).toBe(10);
});

test('the paste report: duplicates after normalisation name the first line; comments and blanks are skipped', () => {
  const { lines, hosts } = parsePaste('a.com\n\n# note\nA.COM.\n例子.cn\r\nxn--fsqu00a.cn\nbad');
  expect(hosts).toEqual(['a.com', 'xn--fsqu00a.cn']);
  expect(lines.filter((l) => l.error).map((l) => [l.line, l.error, l.firstLine])).toEqual([
    [4, 'duplicate', 1],
    [6, 'duplicate', 5],
    [7, 'single', undefined],
  ]);
  expect(localProblems('x.com\nx.com').problems).toHaveLength(1);
});

test('the paste box shows bad lines before sending, then the server’s report; problems save nothing without a confirm', async () => {
  importAnswer = (body) =>
    body.dryRun
      ? envelope({
          lines: 3,
          valid: 1,
          invalid: 1,
          duplicates: 0,
          exists: 1,
          saved: 0,
          problems: [
            { line: 2, input: '*.w.com', error: 'wildcard', message: '不支持通配符域名（*）' },
            { line: 3, input: 'old.com', error: 'exists', message: '域名库中已有此域名' },
          ],
        })
      : envelope({ lines: 3, valid: 1, invalid: 1, duplicates: 0, exists: 1, saved: 1, problems: [] });
  wrap(<StoreAdd />);
  const paste = await screen.findByTestId('domain-paste');
  fireEvent.change(paste, { target: { value: 'new.com\n*.w.com\nold.com\nNEW.com' } });
  // Checked here, before any request: 2 hostnames, a wildcard and a repeat of line 1
  expect((await screen.findByTestId('domain-paste-summary')).textContent).toBe(
    '2 个域名，2 行有问题（本地检查）',
  );
  expect(screen.getByText('不支持通配符域名（*）')).toBeTruthy();
  expect(screen.getByText('与第 1 行重复')).toBeTruthy();
  expect(seen.filter((r) => r.url.includes('/import'))).toHaveLength(0);
  fireEvent.click(screen.getByRole('button', { name: '与域名库核对' }));
  await waitFor(() => expect(screen.getByText('域名库中已有此域名')).toBeTruthy());
  expect(seen.find((r) => r.url.includes('/import'))?.body).toMatchObject({
    dryRun: true,
    role: 'landing',
    status: 'standby',
  });
  fireEvent.click(screen.getByRole('button', { name: '导入 1 个' }));
  const dialog = await screen.findByRole('dialog', { name: '跳过有问题的行？' });
  expect(dialog.textContent).toContain('导入 1 个正常域名，跳过 2 行有问题的？');
  expect(seen.filter((r) => r.url.includes('/import'))).toHaveLength(1);
  fireEvent.click(screen.getByRole('button', { name: '确认' }));
  await waitFor(() => expect(seen.filter((r) => r.url.includes('/import'))).toHaveLength(2));
  expect(seen.at(-1)?.body).toMatchObject({ skipBad: true, text: 'new.com\n*.w.com\nold.com\nNEW.com' });
}, 30_000);

test('the carousel: shares over the whole pool, a link to all its live domains past the listed ones, a pool with none', async () => {
  const domains = Array.from({ length: 3 }, (_, i) => ({
    id: i + 1,
    hostname: `d${i}.com`,
    unicode: `d${i}.com`,
    role: 'landing',
    weight: 1,
    share: 0.4,
    version: 1,
  }));
  carouselAnswer = () =>
    envelope({
      perPool: 3,
      pools: [
        { id: 5, name: '主池', totalWeight: 250, count: 250, domains },
        { id: 6, name: '空池', totalWeight: 0, count: 0, domains: [] },
      ],
    });
  wrap(<Carousel />);
  expect(await screen.findByText('在用域名 250 个，总权重 250')).toBeTruthy();
  const all = screen.getByRole('link', { name: '只列出权重最高的 3 个；在域名库中查看全部 250 个' });
  expect(decodeURIComponent(all.getAttribute('href')!)).toBe(
    '/domain/store?filter={"poolId":5,"status":"active"}',
  );
  expect(screen.getByText('没有在用域名：站点取不到这个池的域名。')).toBeTruthy();
}, 30_000);

test('channel bindings are paged: the next page asks the server for it', async () => {
  channelsAnswer = (q) => {
    const page = Number(q.get('page'));
    return envelope({
      total: 45,
      list: [
        {
          channel: `ag${page}`,
          domains: [
            {
              id: page,
              hostname: `p${page}.com`,
              unicode: `p${page}.com`,
              role: 'channel',
              status: 'active',
              poolId: 5,
              version: 1,
            },
          ],
        },
      ],
    });
  };
  wrap(<ConfigList />);
  expect(await screen.findByText('ag1')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: /next page|下一页/i }));
  expect(await screen.findByText('ag2')).toBeTruthy();
  const asked = seen
    .filter((r) => r.url.includes('/config/channels'))
    .map((r) => new URL(r.url, 'http://x').searchParams.get('page'));
  expect(asked).toEqual(['1', '2']);
}, 30_000);
