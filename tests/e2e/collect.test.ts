import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  api,
  baseURL,
  expectAccessible,
  LOOKS,
  launch,
  look,
  SCREENSHOTS,
  screenshot,
  session,
  settled,
  visit,
} from './browser';
import { freePort } from './ports';
import { E2E_ADMIN_PASSWORD, migratedDataDir } from './setup';

/**
 * Issue #49 end to end: the same reader that collects reads the provide API of another instance of ours. A second
 * server (its own data directory and port) serves a few online movies — series of two lines × three episodes, films,
 * shorts — behind a key. On the suite's server the operator allows 127.0.0.1 and opens its own provide API in the
 * Base settings, adds the other server as a resource site and tests it, binds its types (shorts skipped), makes a dry
 * run (counts, nothing written), a real run (two pages), finds the items pending in the review queue, approves a
 * series, and reads it back from our own provide API with its lines and episodes as the other server served them.
 * Then every collect screen under axe and photographed in both languages and themes.
 */

const stamp = Date.now().toString(36);
const KEY = `k-${stamp}`;
const SERIES = [1, 2, 3].map((n) => `E2E 采集剧 ${stamp} ${n}`);
const FILMS = Array.from({ length: 20 }, (_, i) => `E2E 采集片 ${stamp} ${i + 1}`);
const SHORTS = [1, 2].map((n) => `E2E 采集短片 ${stamp} ${n}`);
const SOURCE_NAME = `另一实例 ${stamp}`;
const NOVEL = `E2E 采集小说 ${stamp}`;
const NOVEL_SOURCE = `另一实例小说 ${stamp}`;
const SHOTS_COPY = '/tmp/shots/collect-e2e';

let browser: Browser;
let p: Page;
let remote: { child: ChildProcess; url: string; dir: string; token: string };
const fx = {
  seriesColumn: 0,
  filmColumn: 0,
  seriesColumnName: `剧集${stamp}`,
  filmColumnName: `电影${stamp}`,
  remoteTypes: { series: `连续剧${stamp}`, films: `电影片${stamp}`, shorts: `短片${stamp}` },
  sourceId: 0,
  realRun: 0,
  remoteNovelColumn: 0,
  novelColumn: 0,
  novelRun: 0,
  original: {} as Record<string, unknown>,
};

/** The other instance: the built server on a copy of the suite's migrated data directory, on a port of its own. */
async function startRemote() {
  const dir = mkdtempSync(join(tmpdir(), 'zhanggui-e2e-remote-'));
  cpSync(await migratedDataDir(), dir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // a state, not a clock: it answers or it exits (the guard only catches a hung start)
  for (const hung = Date.now() + 300_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the second server exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/app/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > hung) throw new Error('the second server did not answer in 5 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  remote = { child, url, dir, token: '' };
  remote.token = (
    await remoteApi<{ token: string }>('/app/admin/login', {
      json: { username: 'admin', password: E2E_ADMIN_PASSWORD },
    })
  ).token;
}

async function remoteApi<T = any>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(`${remote.url}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en-US',
      ...(remote.token ? { 'Admin-Token': remote.token } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, `remote ${path}: ${body.msg}`).toBe(20000);
  return body.data;
}

/** The other instance's catalogue: three series on two lines, twenty films, two shorts; all online. */
async function fillRemote() {
  const column = async (name: string) =>
    (await remoteApi('/app/admin/movie/columns', { json: { name, sort: 1 } })).id as number;
  const series = await column(fx.remoteTypes.series);
  const films = await column(fx.remoteTypes.films);
  const shorts = await column(fx.remoteTypes.shorts);
  const source = async (code: string, baseUrl: string) =>
    (
      await remoteApi('/app/admin/movie/sources', {
        json: { name: code, code, baseUrl, type: 'hls' },
      })
    ).id as number;
  const a = await source(`la${stamp}`, 'https://a.example/');
  const b = await source(`lb${stamp}`, 'https://b.example/vod');
  const ids: number[] = [];
  const movie = async (title: string, columnId: number, plays: unknown[]) =>
    ids.push(
      (
        await remoteApi('/app/admin/movie/movies', {
          json: { title, description: `<p>${title}</p>`, columnId, plays },
        })
      ).id,
    );
  for (const [n, title] of SERIES.entries())
    await movie(title, series, [
      ...[1, 2, 3].map((e) => ({ sourceId: a, line: 0, sort: e, name: `第${e}集`, path: `s${n}/${e}.m3u8` })),
      ...[1, 2, 3].map((e) => ({ sourceId: b, line: 1, sort: e, name: `第${e}集`, path: `s${n}/${e}.mp4` })),
    ]);
  for (const [n, title] of FILMS.entries())
    await movie(title, films, [{ sourceId: a, line: 0, name: '正片', path: `f${n}.m3u8` }]);
  for (const [n, title] of SHORTS.entries())
    await movie(title, shorts, [{ sourceId: b, line: 0, name: '正片', path: `short${n}.mp4` }]);
  await remoteApi('/app/admin/movie/movies/batch', { json: { action: 'approve', ids } });
  // one online novel of two chapters, for the article journey (provide/art)
  fx.remoteNovelColumn = (await remoteApi('/app/admin/novel/columns', { json: { name: `玄幻${stamp}` } })).id;
  const novel = (
    await remoteApi('/app/admin/novel/novels', {
      json: { title: NOVEL, author: '远端作者', columnId: fx.remoteNovelColumn, description: '远端的简介' },
    })
  ).id;
  for (const [i, title] of ['第一章 启程', '第二章 归来'].entries())
    await remoteApi('/app/admin/novel/chapters', {
      json: { novelId: novel, title, content: `第${i + 1}章的正文\n第二段` },
    });
  await remoteApi(`/app/admin/novel/novels/${novel}/approve`, { json: {} });
  const settings = await remoteApi('/app/admin/sys/getSetting');
  await remoteApi('/app/admin/sys/updateSetting', {
    json: { ...settings, provideOpen: true, provideKey: KEY },
  });
}

beforeAll(async () => {
  await startRemote();
  await fillRemote();
  fx.seriesColumn = (await api('/app/admin/movie/columns', { json: { name: fx.seriesColumnName } })).id;
  fx.filmColumn = (await api('/app/admin/movie/columns', { json: { name: fx.filmColumnName } })).id;
  fx.novelColumn = (await api('/app/admin/novel/columns', { json: { name: `小说${stamp}` } })).id;
  fx.original = await api('/app/admin/sys/getSetting');
  browser = await launch();
  p = await session(browser, { locale: 'zh-CN', theme: 'light' });
  // the width the screens are checked at (overflow at 1440 px)
  await p.setViewportSize({ width: 1440, height: 900 });
});

afterAll(async () => {
  await browser?.close();
  // The suite's server goes back to how the other files found it: no internal host allowed, its provide API as it was.
  if (fx.original.version !== undefined) {
    const now = await api('/app/admin/sys/getSetting');
    await api('/app/admin/sys/updateSetting', {
      json: {
        ...now,
        outboundAllow: fx.original.outboundAllow ?? [],
        provideOpen: fx.original.provideOpen ?? false,
        provideKey: fx.original.provideKey ?? '',
      },
    });
  }
  if (remote?.child.exitCode === null) {
    const exited = new Promise((r) => remote.child.once('exit', r));
    remote.child.kill('SIGTERM');
    await exited;
  }
  if (remote?.dir) rmSync(remote.dir, { recursive: true, force: true });
});

const movieList = (view: string) =>
  api(`/app/admin/movie/movies?view=${view}&q=${encodeURIComponent(stamp)}&pageSize=100`);
const provide = (base: string, query: string) =>
  fetch(`${base}/api.php/provide/vod/?${query}`).then((r) => r.json() as Promise<any>);

/**
 * What an earlier attempt of the journey left (vitest retries a failed test once): its resource site goes, with its
 * runs and item records (a run still going is cancelled first), and so do the movies it collected, so that this
 * attempt's dry run and run find everything new again.
 */
async function clearEarlierAttempt() {
  const sources = (await api('/app/admin/collect/sources?pageSize=100')).list as {
    id: number;
    name: string;
  }[];
  for (const source of sources.filter((s) => s.name === SOURCE_NAME || s.name === NOVEL_SOURCE)) {
    const running = async () =>
      (await api(`/app/admin/collect/runs?sourceId=${source.id}`)).list.filter(
        (r: any) => r.status === 'running',
      );
    // it may end meanwhile (then the cancel is refused): what matters is that none is left running
    for (const r of await running())
      await api(`/app/admin/collect/runs/${r.id}/cancel`, { method: 'POST' }).catch(() => undefined);
    await expect.poll(async () => (await running()).length, { timeout: 60_000 }).toBe(0);
    await api(`/app/admin/collect/sources/${source.id}`, { method: 'DELETE' });
  }
  const left = (await movieList('all')).list.map((m: any) => m.id);
  if (left.length) await api('/app/admin/movie/movies/batch', { json: { action: 'delete', ids: left } });
  const novels = (await api(`/app/admin/novel/novels?q=${encodeURIComponent(stamp)}&pageSize=100`)).list;
  for (const n of novels) await api(`/app/admin/novel/novels/${n.id}`, { method: 'DELETE' });
}

test('one instance collects from the provide API of another: test, bind, dry run, run, review, serve', async () => {
  await clearEarlierAttempt();
  // 1. Base settings: 127.0.0.1 allowed to the outbound guard, our own provide API opened.
  await visit(p, '/setting/base', 'form');
  const allow = p.getByRole('textbox', { name: '允许访问的内部主机' });
  const before = (await allow.inputValue()).trim();
  // an earlier attempt may have saved both already: then the form has nothing to save (its button stays disabled)
  let changed = false;
  if (!before.split(/\s+/).includes('127.0.0.1')) {
    await allow.fill(before ? `${before}\n127.0.0.1` : '127.0.0.1');
    changed = true;
  }
  const open = p.getByRole('switch', { name: '向 MacCMS 采集开放影片资源' });
  if (!(await open.isChecked())) {
    await open.check();
    changed = true;
  }
  if (changed) await p.getByRole('button', { name: '保存', exact: true }).click();
  await expect
    .poll(async () => (await api('/app/admin/sys/getSetting')).outboundAllow)
    .toContain('127.0.0.1');
  expect((await api('/app/admin/sys/getSetting')).provideOpen).toBe(true);

  // 2. The other instance as a resource site, its key in the URL; the test reads its types and total.
  await visit(p, '/collect/sourceEdit', 'form');
  await p.getByRole('textbox', { name: '名称' }).fill(SOURCE_NAME);
  await p.getByRole('textbox', { name: '接口地址' }).fill(`${remote.url}/api.php/provide/vod/?key=${KEY}`);
  await p.getByRole('button', { name: '保存', exact: true }).click();
  await p.waitForURL((u) => /^\/collect\/sourceEdit\/\d+$/.test(u.pathname));
  fx.sourceId = Number(new URL(p.url()).pathname.split('/').pop());
  await settled(p);
  await p.getByRole('button', { name: '测试' }).click();
  const tested = p.getByRole('alert').filter({ hasText: '连接正常' });
  await expect.poll(() => tested.textContent()).toMatch(/个分类，共 25 条/);
  for (const name of Object.values(fx.remoteTypes))
    await expect.poll(() => tested.getByText(name).count()).toBe(1);
  await screenshot(p, 'collect-journey-test-zh-CN');

  // 3. Bindings: series and films to our columns, shorts skipped.
  await visit(p, '/collect/bind');
  await p.getByRole('combobox', { name: '资源站' }).click();
  await p.getByRole('option', { name: SOURCE_NAME }).click();
  const bind = async (remoteName: string, choice: string) => {
    const row = p.getByRole('row').filter({ hasText: remoteName });
    await row.getByRole('combobox').click();
    await p.getByRole('option', { name: choice, exact: true }).click();
  };
  await bind(fx.remoteTypes.series, fx.seriesColumnName);
  await bind(fx.remoteTypes.films, fx.filmColumnName);
  await bind(fx.remoteTypes.shorts, '跳过（不采集）');
  await p.getByRole('button', { name: '保存', exact: true }).click();
  await expect
    .poll(async () =>
      (await api(`/app/admin/collect/sources/${fx.sourceId}/bindings`)).list
        .filter((b: any) => Object.values(fx.remoteTypes).includes(b.remoteTypeName))
        .map((b: any) => [b.remoteTypeName, b.columnId, b.skipped])
        .sort(),
    )
    .toEqual(
      [
        [fx.remoteTypes.series, fx.seriesColumn, false],
        [fx.remoteTypes.films, fx.filmColumn, false],
        [fx.remoteTypes.shorts, null, true],
      ].sort(),
    );

  // 4. A dry run (the switch is on by default): what it would add, nothing written.
  await visit(p, '/collect/task');
  await p.getByRole('combobox', { name: '资源站' }).click();
  await p.getByRole('option', { name: SOURCE_NAME }).click();
  expect(await p.getByRole('switch', { name: '试运行（只报告，不写入）' }).isChecked()).toBe(true);
  await p.getByRole('button', { name: '开始采集' }).click();
  const progress = p.getByTestId('run-progress');
  await expect.poll(() => progress.textContent(), { timeout: 60_000 }).toContain('已完成');
  await expect.poll(() => progress.textContent()).toContain('新增 23 · 更新 0 · 跳过 2 · 失败 0');
  const [dry] = (await api(`/app/admin/collect/runs?sourceId=${fx.sourceId}`)).list;
  expect(dry).toMatchObject({ dryRun: true, status: 'done', added: 23, skipped: 2, failed: 0 });
  expect((await movieList('all')).total).toBe(0);

  // 5. The real run, by page range: both pages, their progress on the screen.
  await p.getByRole('switch', { name: '试运行（只报告，不写入）' }).uncheck();
  await p.getByRole('combobox', { name: '采集方式' }).click();
  await p.getByRole('option', { name: '页码范围' }).click();
  await p.getByRole('textbox', { name: '页码（如 1-5）' }).fill('1-5');
  await p.getByRole('button', { name: '开始采集' }).click();
  await expect.poll(() => progress.textContent()).not.toContain(`#${dry.id} `);
  await expect.poll(() => progress.textContent(), { timeout: 60_000 }).toContain('已完成');
  await expect.poll(() => progress.textContent()).toContain('已采 2 / 2 页');
  await expect.poll(() => progress.textContent()).toContain('新增 23 · 更新 0 · 跳过 2 · 失败 0');
  await screenshot(p, 'collect-journey-run-zh-CN');
  const [real] = (await api(`/app/admin/collect/runs?sourceId=${fx.sourceId}`)).list;
  expect(real).toMatchObject({ dryRun: false, status: 'done', pagesDone: 2, pageCount: 2, added: 23 });
  fx.realRun = real.id;

  // 6. The review queue holds them, pending, in the bound columns.
  const queued = await movieList('review');
  expect(queued.total).toBe(23);
  expect(new Set(queued.list.map((m: any) => m.status))).toEqual(new Set(['pending']));
  const series = queued.list.find((m: any) => m.title === SERIES[0]);
  expect(series.columnId).toBe(fx.seriesColumn);
  expect(queued.list.find((m: any) => m.title === FILMS[0]).columnId).toBe(fx.filmColumn);
  expect(queued.list.some((m: any) => SHORTS.includes(m.title))).toBe(false);
  await visit(p, '/movie/review');
  await p.getByRole('textbox', { name: '搜索标题' }).fill(SERIES[0]);
  const row = p.getByRole('row', { name: new RegExp(SERIES[0]) });
  await expect.poll(() => row.count()).toBe(1);
  await row.getByText(SERIES[0]).click();
  await p.waitForURL((u) => u.pathname === `/movie/review/edit/${series.id}`);
  await p.getByRole('button', { name: '审核通过', exact: true }).click();
  await p.getByRole('dialog').getByRole('button', { name: '确认' }).click();
  await p.waitForURL((u) => u.pathname === '/movie/review');
  await expect.poll(async () => (await api(`/app/admin/movie/movies/${series.id}`)).status).toBe('online');

  // 7. Our own provide API serves it with the other instance's lines and episodes, names and URLs intact.
  const theirs = await provide(remote.url, `ac=list&key=${KEY}`);
  expect(theirs.total).toBe(25);
  const remoteId = (await provide(remote.url, `ac=videolist&key=${KEY}&wd=${encodeURIComponent(SERIES[0])}`))
    .list[0].vod_id;
  const [source] = (await provide(remote.url, `ac=detail&key=${KEY}&ids=${remoteId}`)).list;
  const [ours] = (await provide(baseURL(), `ac=detail&ids=${series.id}`)).list;
  expect(source.vod_play_url).toBe(
    [
      '第1集$https://a.example/s0/1.m3u8#第2集$https://a.example/s0/2.m3u8#第3集$https://a.example/s0/3.m3u8',
      '第1集$https://b.example/vod/s0/1.mp4#第2集$https://b.example/vod/s0/2.mp4#第3集$https://b.example/vod/s0/3.mp4',
    ].join('$$$'),
  );
  expect(ours).toMatchObject({
    vod_id: series.id,
    vod_name: SERIES[0],
    type_id: fx.seriesColumn,
    vod_play_from: `la${stamp}$$$lb${stamp}`,
    vod_play_url: source.vod_play_url,
    vod_remarks: '第3集',
  });

  // 8. The history: the real run's per-item log, each item with its outcome and the shorts' reason.
  await visit(p, '/collect/history', 'tbody tr');
  await realRunRow(p).click();
  const log = p.getByTestId('run-log');
  await expect.poll(() => log.getByRole('row').count()).toBe(26);
  const shortRow = log.getByRole('row').filter({ hasText: SHORTS[0] });
  await expect.poll(() => shortRow.textContent()).toContain('其分类绑定为“跳过”');
  await expect
    .poll(() => log.getByRole('row').filter({ hasText: SERIES[0] }).textContent())
    .toContain('新增');
});

test('a novel: an article source added with its kind, bound to a novel column, collected into the novel review queue', async () => {
  // The journey above opened our provide API and allowed 127.0.0.1; this one needs the second.
  const settings = await api('/app/admin/sys/getSetting');
  if (!settings.outboundAllow.includes('127.0.0.1'))
    await api('/app/admin/sys/updateSetting', {
      json: { ...settings, outboundAllow: [...settings.outboundAllow, '127.0.0.1'] },
    });
  // 1. The other instance's articles as a source: its kind chosen in the form.
  await visit(p, '/collect/sourceEdit', 'form');
  await p.getByRole('textbox', { name: '名称' }).fill(NOVEL_SOURCE);
  await p.getByRole('textbox', { name: '接口地址' }).fill(`${remote.url}/api.php/provide/art/?key=${KEY}`);
  await p.getByRole('radio', { name: '小说', exact: true }).check();
  await p.getByRole('button', { name: '保存', exact: true }).click();
  await p.waitForURL((u) => /^\/collect\/sourceEdit\/\d+$/.test(u.pathname));
  const sourceId = Number(new URL(p.url()).pathname.split('/').pop());
  expect((await api(`/app/admin/collect/sources/${sourceId}`)).kind).toBe('art');
  await expect.poll(() => p.getByRole('radio', { name: '小说', exact: true }).isDisabled()).toBe(true);
  // 2. Its test lists the other instance's novel column; bound to ours.
  await p.getByRole('button', { name: '测试', exact: true }).click();
  await p.getByRole('alert').filter({ hasText: '连接正常' }).waitFor();
  await api(`/app/admin/collect/sources/${sourceId}/bindings`, {
    method: 'PUT',
    json: { bindings: [{ remoteTypeId: fx.remoteNovelColumn, columnId: fx.novelColumn, skipped: false }] },
  });
  // 3. A run: the novel arrives pending with its two chapters.
  const started = await api('/app/admin/collect/runs', { json: { sourceId, kind: 'hours', hours: 24 } });
  fx.novelRun = started.id;
  await expect
    .poll(async () => (await api(`/app/admin/collect/runs/${started.id}`)).status, { timeout: 60_000 })
    .toBe('done');
  const [novel] = (await api(`/app/admin/novel/novels?q=${encodeURIComponent(NOVEL)}`)).list;
  expect(novel).toMatchObject({ title: NOVEL, author: '远端作者', status: 'pending', chapterCount: 2 });
  // 4. The history's log links the novel to its page in the review queue.
  await visit(p, '/collect/history', 'tbody tr');
  await novelRunRow(p).click();
  await p.getByTestId('run-log').getByRole('link', { name: NOVEL }).click();
  await p.waitForURL((u) => u.pathname === `/novel/review/edit/${novel.id}`);
  await p.locator('form').waitFor();
});

/** The history's row of the novel run. */
const novelRunRow = (p: Page) =>
  p
    .locator('tr.RaDatagrid-row')
    .filter({ has: p.getByRole('cell', { name: String(fx.novelRun), exact: true }) });

/** The history's row of the real run (not a row of an open log: those have cells of plain numbers too). */
const realRunRow = (p: Page) =>
  p
    .locator('tr.RaDatagrid-row')
    .filter({ has: p.getByRole('cell', { name: String(fx.realRun), exact: true }) });

const screens = (): [string, string, (p: Page) => Promise<void>][] => [
  ['/collect/source', 'collect-source', (p) => p.locator('tbody tr').first().waitFor()],
  [
    `/collect/sourceEdit/${fx.sourceId}`,
    'collect-source-edit',
    async (p) => {
      await p.locator('form').waitFor();
      await p.getByRole('button', { name: /^(测试|Test)$/ }).click();
      await p
        .getByRole('alert')
        .filter({ hasText: /共 25 条|25 items/ })
        .waitFor();
    },
  ],
  ['/collect/sourceEdit', 'collect-source-create', (p) => p.locator('form').waitFor()],
  [
    '/collect/bind',
    'collect-bind',
    async (p) => {
      await p.locator('[role="combobox"]').first().click();
      await p.getByRole('option', { name: SOURCE_NAME }).click();
      await p.locator('table').waitFor();
    },
  ],
  [
    '/collect/task',
    'collect-task',
    async (p) => {
      await p.locator('[role="combobox"]').first().click();
      await p.getByRole('option', { name: SOURCE_NAME }).click();
      await p.getByRole('button', { name: /^(开始采集|Start)$/ }).click();
      await p
        .getByTestId('run-progress')
        .filter({ hasText: /已完成|Done/ })
        .waitFor();
    },
  ],
  [
    '/collect/history',
    'collect-history',
    async (p) => {
      // the list keeps its rows' expansion (react-admin's store): open the real run's log unless it is open
      await realRunRow(p).waitFor();
      // the novel run's log, opened by its journey or the novel screen, is folded: one log per photograph
      if (await p.locator(`tr[id="${fx.novelRun}-expand"]`).count()) await novelRunRow(p).click();
      if (!(await p.locator(`tr[id="${fx.realRun}-expand"]`).count())) await realRunRow(p).click();
      await expect.poll(() => p.getByTestId('run-log').count()).toBe(1);
    },
  ],
  [
    '/collect/history',
    'collect-history-novel',
    async (p) => {
      await novelRunRow(p).waitFor();
      if (await p.locator(`tr[id="${fx.realRun}-expand"]`).count()) await realRunRow(p).click();
      if (!(await p.locator(`tr[id="${fx.novelRun}-expand"]`).count())) await novelRunRow(p).click();
      await p.getByTestId('run-log').filter({ hasText: NOVEL }).waitFor();
      await expect.poll(() => p.getByTestId('run-log').count()).toBe(1);
    },
  ],
];

for (const [locale, theme] of LOOKS) {
  // axe once per language and once per theme (zh-CN light, en-US dark); every screen photographed in all four
  const axe = (locale === 'zh-CN') === (theme === 'light');
  test(`every collect screen, ${locale} ${theme}: photographed${axe ? ', accessible' : ''}`, async () => {
    await look(p, locale, theme);
    mkdirSync(SHOTS_COPY, { recursive: true });
    for (const [path, name, ready] of screens()) {
      await visit(p, path);
      await ready(p);
      await settled(p);
      // nothing wider than the window at 1440 px
      expect(await p.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(1440);
      if (axe) await expectAccessible(p);
      await screenshot(p, `${name}-${locale}-${theme}`);
      cpSync(`${SCREENSHOTS}/${name}-${locale}-${theme}.png`, `${SHOTS_COPY}/${name}-${locale}-${theme}.png`);
    }
  });
}
