// @vitest-environment jsdom
/**
 * The stats screens over the real API in-process (PGlite): global fetch is the Hono app. Events go in through the
 * public ingestion with the site key, the rollup runs (admin route), and each screen shows what was sent; the
 * demand-gap action adopts a keyword, and a later search for it that finds content leaves the gap.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect, test, vi } from 'vitest';
import { MovieStats, TagStats } from '../../src/resources/statistics/ContentStats';
import { DomainHours, DomainStats } from '../../src/resources/statistics/DomainStats';
import { DomainVisitDetail } from '../../src/resources/statistics/DomainVisits';
import { HotKeywords } from '../../src/resources/statistics/HotKeywords';
import type { TestApi } from '../api/harness';
import { createMovie, makeFixture, okData } from '../api/movies-helpers';
import { siteDoor } from '../api/site-door';
import { inProcessApi } from './in-process-api';
import { mountScreen } from './mount';

vi.setConfig({ testTimeout: 60_000 });

let api: TestApi;
let token: string;
let movies: { hot: number; cold: number };
let send: (events: unknown[]) => Promise<{ body: any }>;
let n = 0;
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
// The harness clock is 2026-06-01T08:00Z: 16:00 in Shanghai, so "today" is 2026-06-01.
const event = (over: Record<string, unknown>) => ({
  id: `ui-live-${++n}-${Date.now().toString(36)}`,
  type: 'pageview',
  time: '2026-06-01T07:00:00Z',
  domain: 'www.cherry.example',
  path: '/',
  visitor: `v${n % 4}`,
  ua: DESKTOP,
  ip: '120.24.78.68',
  ...over,
});

inProcessApi(async (started, admin) => {
  api = started;
  token = admin;
  const fx = await makeFixture(api, token);
  const make = async (title: string) =>
    (await createMovie(api, token, { title, columnId: fx.columns.movies, tagIds: [fx.tags.hot] }))
      .id as number;
  movies = { hot: await make('长安夜行'), cold: await make('冷门纪录') };
  await okData(
    api.call('POST', '/app/admin/movie/movies/batch', {
      token,
      body: { action: 'approve', ids: [movies.hot, movies.cold] },
    }),
  );
  // The events carry `ip`, which only the site's server may send: signed.
  const door = await siteDoor(api, token);
  send = (events) => door.signed('/app/site/events', { events });
  const sent = await send([
    ...Array.from({ length: 6 }, (_, i) =>
      event({
        path: `/movie/${movies.hot}`,
        object: { type: 'movie', id: movies.hot },
        visitor: `m${i % 3}`,
      }),
    ),
    ...Array.from({ length: 2 }, (_, i) =>
      event({
        type: 'play',
        path: `/movie/${movies.hot}`,
        object: { type: 'movie', id: movies.hot },
        visitor: `m${i}`,
      }),
    ),
    event({ domain: 'm.cherry.example', referrer: 'https://www.baidu.com/s?wd=x', channel: 'agent7' }),
    event({ type: 'search', keyword: '仙侠', results: 12, visitor: 's1' }),
    event({ type: 'search', keyword: '仙侠', results: 8, visitor: 's2' }),
    event({ type: 'search', keyword: '无此片', results: 0, visitor: 's1' }),
    event({ type: 'search', keyword: '无此片', results: 0, visitor: 's3' }),
    event({ type: 'search', keyword: '无此片', results: 0, visitor: 's3' }),
  ]);
  expect(sent.body.data).toMatchObject({ accepted: 14, rejected: [] });
  await okData(api.call('POST', '/app/admin/stats/rollup', { token }));
});

const mount = (node: ReactNode, url = '/') => mountScreen(node, { url });
const cells = (text: string) =>
  within(screen.getByText(text).closest('tr') as HTMLElement)
    .getAllByRole('cell')
    .map((c) => c.firstChild?.textContent);

test('hot keywords: what was searched, zero-result flagged; adopting the gap keyword, a later hit leaves the gap', async () => {
  mount(<HotKeywords />);
  await screen.findByText('仙侠');
  expect(screen.getByText('按时区 Asia/Shanghai 划分日期')).toBeTruthy();
  expect(cells('仙侠')).toEqual(['2', '2', '10.0', '0']);
  expect(cells('无此片')).toEqual(['3', '2', '0.0', '3']);
  expect(within(screen.getByText('无此片').closest('tr') as HTMLElement).getByText('无结果')).toBeTruthy();
  expect(within(screen.getByTestId('totals')).getAllByRole('cell')[0].firstChild?.textContent).toBe('5');

  fireEvent.click(screen.getByRole('tab', { name: '需求缺口' }));
  const adopt = await screen.findByRole('button', { name: '把「无此片」加为别名或标签…' });
  expect(screen.queryByText('仙侠')).toBeNull();
  fireEvent.click(adopt);
  const dialog = await screen.findByRole('dialog');
  const box = within(dialog).getByRole('combobox', { name: '选择内容' });
  fireEvent.change(box, { target: { value: '长安' } });
  fireEvent.click(await screen.findByRole('option', { name: '长安夜行' }));
  fireEvent.click(within(dialog).getByRole('button', { name: '添加' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  const movie = await okData(api.call('GET', `/app/admin/movie/movies/${movies.hot}`, { token }));
  const tags = await okData(
    api.call('GET', `/app/admin/movie/tags?ids=${movie.tagIds.join(',')}`, { token }),
  );
  expect(tags.list.map((t: { name: string }) => t.name)).toContain('无此片');

  // the site now finds the movie for it: that day's searches for it are no longer all empty
  await send([event({ type: 'search', keyword: '无此片', results: 1, visitor: 's4' })]);
  await okData(api.call('POST', '/app/admin/stats/rollup', { token }));
  cleanup();
  mount(<HotKeywords />);
  await screen.findByText('仙侠');
  fireEvent.click(screen.getByRole('tab', { name: '需求缺口' }));
  expect(await screen.findByText('本时段没有无结果的搜索')).toBeTruthy();
});

test('movies and tags: views, plays, viewers, play rate; the cold movie is in “not seen”', async () => {
  mount(<MovieStats />);
  await screen.findByText('长安夜行');
  expect(cells('长安夜行')).toEqual(['6', '2', '2', '33.3%']); // viewers: m0 and m1 played
  fireEvent.click(screen.getByRole('tab', { name: '本时段无人浏览' }));
  expect(await screen.findByText('冷门纪录')).toBeTruthy();
  expect(screen.queryByText('长安夜行')).toBeNull();
  cleanup();
  mount(<TagStats />);
  // the tag carries the views and plays of its movie
  await screen.findByText('热门');
  expect(cells('热门').slice(0, 2)).toEqual(['6', '2']);
});

test('domains and their hours; the visits of a domain by referrer and channel', async () => {
  mount(<DomainStats />);
  await screen.findByText('www.cherry.example');
  // page views only: the searches and plays were not page views
  expect(cells('www.cherry.example')[0]).toBe('6');
  expect(cells('m.cherry.example')[0]).toBe('1');
  cleanup();
  mount(<DomainHours />, '/stats/domains/detail?domain=www.cherry.example');
  // The hours are paged, oldest first; sorted newest first, the last day's hours are on the first page.
  const hour = await screen.findByRole('columnheader', { name: '时段' });
  fireEvent.click(within(hour).getByRole('button'));
  await waitFor(() => expect(hour.getAttribute('aria-sort')).toBe('descending'));
  await screen.findByText(/2026-06-01 15:00/);
  cleanup();
  mount(<DomainVisitDetail />, '/stats/domainsvisit/detail?domain=m.cherry.example');
  await screen.findByText('/');
  expect(cells('/')).toEqual(['1', '1', '100.0%']);
  fireEvent.click(screen.getByRole('tab', { name: '来源' }));
  await screen.findByText(/baidu/);
  fireEvent.click(screen.getByRole('tab', { name: '渠道' }));
  await screen.findByText('agent7');
});
