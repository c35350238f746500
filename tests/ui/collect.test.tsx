// @vitest-environment jsdom
/**
 * The collection screens (issue #49) over the real API in-process (PGlite), the resource site answered from the
 * recorded fixtures of tests/fixtures/collect through the app's outbound handle: sources listed and created (a bad
 * URL refused beside its input), the connection test's types and total, bindings saved, a dry run started and
 * followed to its counts, and a run's per-item log in the history; a video source as collection makes it (a line's
 * code, no base URL) saved back through its edit form.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'drizzle-orm';
import type { ReactNode } from 'react';
import { ResourceContextProvider } from 'react-admin';
import { expect, test, vi } from 'vitest';
import type { OutboundFetch } from '../../server/core/outbound';
import { builtinPermissions } from '../../src/auth/catalog';
import { sections } from '../../src/resources';
import { Bind } from '../../src/resources/collect/Bind';
import { HistoryList } from '../../src/resources/collect/HistoryList';
import { RUN_RESOURCE, SOURCE_RESOURCE } from '../../src/resources/collect/names';
import { SourceEdit } from '../../src/resources/collect/SourceEdit';
import { SourceList } from '../../src/resources/collect/SourceList';
import { Task } from '../../src/resources/collect/Task';
import { SourceEdit as VideoSourceEdit } from '../../src/resources/movie/SourceList';
import { apiPaths } from '../../src/routes/build';
import { flattenRoutes, matchRoute, menuFor } from '../../src/routes/table';
import type { TestApi } from '../api/harness';
import { okData } from '../api/movies-helpers';
import { inProcessApi } from './in-process-api';
import { mountScreen } from './mount';

vi.setConfig({ testTimeout: 60_000 });

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/collect', name));

/** The resource site: its type list, and its two recorded pages. */
let release: () => void = () => undefined;
const site: OutboundFetch = async (url) => {
  const q = new URL(url).searchParams;
  // the slow site's pages wait until the test lets them go, so that a run is still running when it is cancelled
  if (url.includes('slow.example.com') && q.get('ac') !== 'list')
    await new Promise<void>((r) => {
      release = r;
    });
  // an article site answers MacCMS's provide/art, a performer site its provide/actor
  const kind = url.includes('/provide/art/') ? 'art-' : url.includes('/provide/actor/') ? 'actor-' : '';
  const name =
    kind === 'actor-'
      ? 'actor-page1.json'
      : q.get('ac') === 'list'
        ? `${kind}list.json`
        : q.get('pg') === '2'
          ? 'page2.json'
          : `${kind}page1.json`;
  return {
    status: 200,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }),
    body: new Uint8Array(fixture(name)),
    url,
    ms: 1,
  };
};

let api: TestApi;
let token: string;
let sourceId: number;
let movieCol: number;

/** Adds a video source through the API: its id. */
const addSource = async (name: string, url: string) =>
  (await okData(api.call('POST', '/app/admin/collect/sources', { token, body: { name, url } }))).id as number;

inProcessApi({ start: { outbound: site } }, async (started, admin) => {
  api = started;
  token = admin;
  sourceId = await addSource('测试资源站', 'https://res.example.com/api.php/provide/vod/');
  await addSource('慢资源站', 'https://slow.example.com/api.php/provide/vod/');
  movieCol = (await okData(api.call('POST', '/app/admin/movie/columns', { token, body: { name: '电影' } })))
    .id;
});

const mount = (node: ReactNode, url: string, path = url) => mountScreen(node, { url, path });

/** Opens source `id`'s edit page. */
const editSource = (id: number) =>
  mount(
    <ResourceContextProvider value={SOURCE_RESOURCE}>
      <SourceEdit />
    </ResourceContextProvider>,
    `/collect/sourceEdit/${id}`,
    '/collect/sourceEdit/:id?',
  );

/** Picks `option` in the MUI select labelled `label`. */
async function pick(label: string | RegExp, option: string | RegExp) {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

interface EndedRun {
  status: string;
  log: { outcome: string; name: string; movieId?: number; novelId?: number; actressId?: number }[];
}

/** Starts a run through the API and waits for its end. */
async function runToEnd(body: Record<string, unknown>): Promise<EndedRun> {
  const started = await okData(api.call('POST', '/app/admin/collect/runs', { token, body }));
  let run: EndedRun | undefined;
  await waitFor(
    async () => {
      run = await okData(api.call('GET', `/app/admin/collect/runs/${started.id}`, { token }));
      expect(run?.status).toBe('done');
    },
    { timeout: 30_000 },
  );
  return run as EndedRun;
}

/** Opens the history, the newest run of `source`, and answers its log. */
async function openLog(source: string) {
  mount(
    <ResourceContextProvider value={RUN_RESOURCE}>
      <HistoryList />
    </ResourceContextProvider>,
    '/collect/history',
  );
  fireEvent.click((await screen.findAllByText(source))[0]);
  return screen.findByTestId('run-log');
}

test('the section: /collect goes to its sources; the edit page is hidden under them', () => {
  const routes = flattenRoutes(sections);
  expect(
    menuFor(sections, builtinPermissions('admin'))
      .find((s) => s.path === '/collect')
      ?.items.map((i) => i.path),
  ).toEqual(['/collect/source', '/collect/bind', '/collect/task', '/collect/history']);
  expect(matchRoute(routes, '/collect/sourceEdit/3')).toMatchObject({
    hideInMenu: true,
    activeMenu: '/collect/source',
  });
  expect(apiPaths(sections)).toMatchObject({
    [SOURCE_RESOURCE]: 'admin/collect/sources',
    [RUN_RESOURCE]: 'admin/collect/runs',
  });
});

test('sources are listed; a new one with a bad URL is refused beside its input', async () => {
  mount(
    <ResourceContextProvider value={SOURCE_RESOURCE}>
      <SourceList />
    </ResourceContextProvider>,
    '/collect/source',
  );
  expect(await screen.findByText('测试资源站')).toBeTruthy();
  cleanup();

  mount(
    <ResourceContextProvider value={SOURCE_RESOURCE}>
      <SourceEdit />
    </ResourceContextProvider>,
    '/collect/sourceEdit',
    '/collect/sourceEdit/:id?',
  );
  fireEvent.change(await screen.findByLabelText(/名称/), { target: { value: '坏地址' } });
  fireEvent.change(screen.getByLabelText(/接口地址/), { target: { value: 'ftp://nope' } });
  fireEvent.click(screen.getByRole('button', { name: /保存/ }));
  expect(await screen.findAllByText(/请填写资源站的 http\(s\) 接口地址/)).not.toHaveLength(0);
  const list = await okData(api.call('GET', '/app/admin/collect/sources', { token }));
  expect(list.list.map((s: { name: string }) => s.name)).not.toContain('坏地址');
});

test('the test button shows the remote types and the total', async () => {
  editSource(sourceId);
  fireEvent.click(await screen.findByRole('button', { name: '测试' }));
  expect(await screen.findByText(/连接正常：3 个分类，共 8 条/)).toBeTruthy();
  expect(screen.getByText('2 电视剧')).toBeTruthy();
});

test('covers: the form saves the choice of our image store; a dry run’s log says which covers it would save', async () => {
  const id = await addSource('本地图片站', 'https://pics.example.com/api.php/provide/vod/');
  await okData(
    api.call('PUT', `/app/admin/collect/sources/${id}/bindings`, {
      token,
      body: { bindings: [{ remoteTypeId: 1, columnId: movieCol, skipped: false }] },
    }),
  );
  editSource(id);
  const remote = (await screen.findByRole('radio', { name: '使用远程地址' })) as HTMLInputElement;
  expect(remote.checked).toBe(true);
  expect(screen.getByText(/抓取失败的保留远程地址/)).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: '保存到本站图片库' }));
  fireEvent.click(screen.getByRole('button', { name: /保存$/ }));
  await waitFor(async () =>
    expect((await okData(api.call('GET', `/app/admin/collect/sources/${id}`, { token }))).imageMode).toBe(
      'local',
    ),
  );
  cleanup();

  await runToEnd({ sourceId: id, kind: 'pages', pageFrom: 1, pageTo: 1, dryRun: true });
  const log = await openLog('本地图片站');
  expect(log.textContent).toContain('封面将保存到本站图片库');
});

test('bindings: unbound types are listed, one is bound, one skipped, and saved', async () => {
  mount(<Bind />, '/collect/bind');
  await pick('资源站', '测试资源站');
  expect((await screen.findByTestId('unbound')).textContent).toContain('3 个远端分类尚未绑定');
  // each picker is named by its row's remote type
  const rows = await screen.findAllByRole('combobox', { name: /^本站栏目 \d/ });
  expect(rows).toHaveLength(3);
  expect(rows[0]).toBe(screen.getByRole('combobox', { name: '本站栏目 1 电影' }));
  fireEvent.mouseDown(rows[0]);
  fireEvent.click(await screen.findByRole('option', { name: '电影' }));
  fireEvent.mouseDown(rows[2]);
  fireEvent.click(await screen.findByRole('option', { name: /跳过/ }));
  fireEvent.click(screen.getByRole('button', { name: /保存/ }));
  await waitFor(() => expect(screen.getByTestId('unbound').textContent).toContain('1 个远端分类尚未绑定'));
  const saved = await okData(api.call('GET', `/app/admin/collect/sources/${sourceId}/bindings`, { token }));
  const byType = Object.fromEntries(
    saved.list.map(
      (b: { remoteTypeId: number; columnId: number | null; skipped: boolean; bound: boolean }) => [
        b.remoteTypeId,
        [b.columnId, b.skipped, b.bound],
      ],
    ),
  );
  expect(byType).toEqual({ 1: [movieCol, false, true], 2: [null, false, false], 3: [null, true, true] });
});

test('a dry run starts, its progress and counts show, and the history opens its per-item log', async () => {
  mount(<Task />, '/collect/task');
  await pick('资源站', '测试资源站');
  await pick('采集方式', '页码范围');
  fireEvent.change(screen.getByLabelText(/页码/), { target: { value: '1-2' } });
  expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: '开始采集' }));
  const progress = await screen.findByTestId('run-progress');
  await waitFor(() => expect(within(progress).getByText('已完成')).toBeTruthy());
  expect(progress.textContent).toContain('已采 2 / 2 页');
  expect(progress.textContent).toMatch(/新增 \d+ · 更新 \d+ · 跳过 \d+ · 失败 \d+/);
  expect(progress.textContent).toContain('试运行');
  // a run that has ended shows no progress bar, hidden or not
  expect(within(progress).queryByRole('progressbar', { hidden: true })).toBeNull();
  const runs = await okData(api.call('GET', '/app/admin/collect/runs', { token }));
  expect(runs.list[0]).toMatchObject({ dryRun: true, status: 'done', pagesDone: 2 });
  expect(progress.textContent).toContain(`新增 ${runs.list[0].added} `);
  cleanup();

  mount(
    <ResourceContextProvider value={RUN_RESOURCE}>
      <HistoryList />
    </ResourceContextProvider>,
    '/collect/history',
  );
  fireEvent.click(await screen.findByText('测试资源站'));
  const log = await screen.findByTestId('run-log');
  expect(log.textContent).toContain('流浪地球');
  expect(log.textContent).toMatch(/新增|跳过/);
});

test('a run refused names its field; a running run is cancelled after confirming', async () => {
  mount(<Task />, '/collect/task');
  await pick('资源站', '慢资源站');
  await pick('采集方式', '页码范围');
  fireEvent.click(screen.getByRole('button', { name: '开始采集' }));
  // the API's field error shows under the value input, which turns invalid
  await waitFor(() => expect(screen.getByLabelText(/页码/).getAttribute('aria-invalid')).toBe('true'));
  expect(screen.getByText('必填')).toBeTruthy();
  expect(screen.queryByTestId('run-progress')).toBeNull();

  fireEvent.change(screen.getByLabelText(/页码/), { target: { value: '1' } });
  fireEvent.click(screen.getByRole('button', { name: '开始采集' }));
  const first = await screen.findByTestId('run-progress');
  expect(within(first).getByText('进行中')).toBeTruthy();
  // while it runs, a bar named by its pages
  expect(within(first).getByRole('progressbar', { name: /已采 \d+ \/ \d+ 页/ })).toBeTruthy();
  const title = first.textContent?.match(/任务 #\d+/)?.[0];
  expect(title).toBeTruthy();
  // the screen left and opened again: choosing the source follows its run still going
  cleanup();
  mount(<Task />, '/collect/task');
  await pick('资源站', '慢资源站');
  const progress = await screen.findByTestId('run-progress');
  expect(progress.textContent).toContain(title);
  expect(within(progress).getByText('进行中')).toBeTruthy();
  fireEvent.click(within(progress).getByRole('button', { name: '取消任务' }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain('停止此任务？');
  fireEvent.click(within(dialog).getByRole('button', { name: /确认|确定|取消任务/ }));
  await waitFor(() =>
    expect(within(progress).getByRole('button', { name: '取消任务' })).toHaveProperty('disabled', true),
  );
  release();
  await waitFor(() => expect(within(progress).getByText('已取消')).toBeTruthy());
});

test('a source whose last run failed says why in words, never as a message key; only the API’s sorts are offered', async () => {
  // as a failed run leaves it: the failure's key and the site's words
  await api.query(
    sql`update collect_sources set last_error = ${'collect.fail.http\t503'}, last_run_at = now() where id = ${sourceId}`,
  );
  mount(
    <ResourceContextProvider value={SOURCE_RESOURCE}>
      <SourceList />
    </ResourceContextProvider>,
    '/collect/source',
  );
  expect(await screen.findByText('资源站返回了 HTTP 503')).toBeTruthy();
  expect(screen.queryByText(/collect\.fail/)).toBeNull();
  // only the sorts the API takes (id, name) are offered: a header of another asked for a sort it refuses
  const sortable = screen.getAllByRole('columnheader').filter((h) => within(h).queryByRole('button'));
  expect(sortable.map((h) => h.textContent?.trim())).toEqual(['ID', '名称']);
});

test('a video source collection made (no base URL, a code like qq.com) saves back through its form', async () => {
  const [row] = await api.query<{ id: number }>(sql`
    insert into video_sources (name, code, base_url) values ('qq.com', 'qq.com', '') returning id`);
  mount(
    <ResourceContextProvider value="movie/sources">
      <VideoSourceEdit />
    </ResourceContextProvider>,
    `/movie/sources/edit/${row.id}`,
    '/movie/sources/edit/:id',
  );
  expect(((await screen.findByLabelText(/代码/)) as HTMLInputElement).value).toBe('qq.com');
  expect(screen.getByText(/留空：每集的路径就是完整地址/)).toBeTruthy();
  // Renamed only: the stored code and the empty base URL go back as they are.
  fireEvent.change(screen.getByLabelText(/名称/), { target: { value: '腾讯' } });
  fireEvent.click(screen.getByRole('button', { name: /保存/ }));
  await waitFor(async () => {
    const saved = await okData(api.call('GET', `/app/admin/movie/sources/${row.id}`, { token }));
    expect(saved).toMatchObject({ name: '腾讯', code: 'qq.com', baseUrl: '', version: 2 });
  });
});

test('a real run’s history links each item that became a movie to that movie’s page', async () => {
  const run = await runToEnd({ sourceId, kind: 'pages', pageFrom: 1, pageTo: 2 });
  const added = run.log.find((e) => e.outcome === 'added');
  expect(added?.movieId).toBeTypeOf('number');
  // newest first: the real run's row
  const log = await openLog('测试资源站');
  const link = await within(log).findByRole('link', { name: added?.name });
  expect(link.getAttribute('href')).toBe(`/movie/review/edit/${added?.movieId}`);
  // an item that became nothing (skipped for its type, failed) is plain text
  const skipped = run.log.find((e) => !e.movieId);
  if (skipped?.name) expect(within(log).queryByRole('link', { name: skipped.name })).toBeNull();
});

test('a source’s key shows masked in its form; saved back as shown, the key stays', async () => {
  const made = await okData(
    api.call('POST', '/app/admin/collect/sources', {
      token,
      body: {
        name: '有密钥的站',
        url: 'https://keyed.example.com/api.php/provide/vod/',
        apiKey: 'Ui-K3y-77',
      },
    }),
  );
  mount(
    <ResourceContextProvider value={SOURCE_RESOURCE}>
      <SourceEdit />
    </ResourceContextProvider>,
    `/collect/sourceEdit/${made.id}`,
    '/collect/sourceEdit/:id?',
  );
  const input = (await screen.findByLabelText(/资源站密钥/)) as HTMLInputElement;
  await waitFor(() => expect(input.value).toBe('******'));
  expect(document.body.textContent).not.toContain('Ui-K3y-77');
  fireEvent.change(screen.getByLabelText(/名称/), { target: { value: '有密钥的站2' } });
  fireEvent.click(screen.getByRole('button', { name: /保存/ }));
  await waitFor(async () => {
    const [row] = await api.query<{ name: string; api_key: string }>(
      sql`select name, api_key from collect_sources where id = ${made.id}`,
    );
    expect(row).toEqual({ name: '有密钥的站2', api_key: 'Ui-K3y-77' });
  });
});

test('an article source: its kind is chosen when added and fixed after; its history links each novel to its page', async () => {
  mount(
    <ResourceContextProvider value={SOURCE_RESOURCE}>
      <SourceEdit />
    </ResourceContextProvider>,
    '/collect/sourceEdit',
    '/collect/sourceEdit/:id?',
  );
  fireEvent.change(await screen.findByLabelText(/名称/), { target: { value: '小说资源站' } });
  fireEvent.change(screen.getByLabelText(/接口地址/), {
    target: { value: 'https://novels.example.com/api.php/provide/art/' },
  });
  fireEvent.click(screen.getByLabelText('小说'));
  fireEvent.click(screen.getByRole('button', { name: /保存/ }));
  // saved, the form reopens as the source's edit page: the kind shown, no longer offered
  await waitFor(() => {
    const art = screen.getByLabelText('小说') as HTMLInputElement;
    expect(art.disabled).toBe(true);
    expect(art.checked).toBe(true);
  });
  const list = await okData(api.call('GET', '/app/admin/collect/sources?pageSize=100', { token }));
  const source = list.list.find((x: { name: string }) => x.name === '小说资源站');
  expect(source.kind).toBe('art');
  cleanup();

  const column = (
    await okData(api.call('POST', '/app/admin/novel/columns', { token, body: { name: '玄幻' } }))
  ).id;
  await okData(api.call('POST', `/app/admin/collect/sources/${source.id}/test`, { token }));
  mount(<Bind />, '/collect/bind');
  await pick('资源站', '小说资源站 · 小说');
  // its types are offered novel columns
  await pick('本站栏目 11 玄幻', '玄幻');
  fireEvent.click(screen.getByRole('button', { name: /保存/ }));
  await waitFor(async () => {
    const b = await okData(api.call('GET', `/app/admin/collect/sources/${source.id}/bindings`, { token }));
    expect(b.list.find((x: { remoteTypeId: number }) => x.remoteTypeId === 11).columnId).toBe(column);
  });
  cleanup();

  const run = await runToEnd({ sourceId: source.id, kind: 'hours' });
  const added = run.log.find((e) => e.outcome === 'added');
  expect(added?.novelId).toBeTypeOf('number');
  const link = await within(await openLog('小说资源站')).findByRole('link', { name: added?.name });
  expect(link.getAttribute('href')).toBe(`/novel/review/edit/${added?.novelId}`);
});

test('a performer source has nothing to bind; its history links each actress to her profile', async () => {
  const source = await okData(
    api.call('POST', '/app/admin/collect/sources', {
      token,
      body: { name: '演员资源站', kind: 'actor', url: 'https://actors.example.com/api.php/provide/actor/' },
    }),
  );
  mount(<Bind />, '/collect/bind');
  await pick('资源站', '演员资源站 · 演员');
  expect(await screen.findByText(/演员资源站不需要绑定分类/)).toBeTruthy();
  cleanup();
  const run = await runToEnd({ sourceId: source.id, kind: 'hours' });
  const added = run.log.find((e) => e.outcome === 'added');
  const link = await within(await openLog('演员资源站')).findByRole('link', { name: added?.name });
  expect(link.getAttribute('href')).toBe(`/actress/edit/${added?.actressId}`);
});
