// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { isFuture, presentKey } from '../../common/period';
import { createDataProvider } from '../../src/api/dataProvider';
import { queryClient } from '../../src/api/queryClient';
import { ReportList, type ReportListProps } from '../../src/components/ReportList';
import { compareFigure, formatChange, formatFigure } from '../../src/components/reportFigures';
import { loadReportScreen } from '../../src/components/reportScreen';
import { createI18nProvider } from '../../src/i18n';
import { envelope, queryOf, type SeenRequest, stubFetch } from './api-fetch-stub';
import { stubResizeObserver } from './resize-observer';

const csv = vi.hoisted(() => ({ files: [] as { text: string; name: string }[] }));
vi.mock('react-admin', async (original) => ({
  ...(await original<typeof import('react-admin')>()),
  downloadCSV: (text: string, name: string) => csv.files.push({ text, name }),
}));

beforeEach(() => {
  csv.files = [];
});
// jsdom renders of whole reports are slow on a shared machine: time is not what these tests measure.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An hour's key in the reports' time zone (META's). */
const presentKeyOf = (d: Date) => presentKey(d, 'Asia/Shanghai');

const META = { timeZone: 'Asia/Shanghai', today: '2026-11-23', earliest: '2026-09-01' };
const ROWS = [
  {
    key: '仙侠',
    searches: 12,
    searchers: 9,
    zeroRate: 0.25,
    previous: { searches: 8, searchers: 9, zeroRate: 0.2 },
  },
  {
    key: 'sci-fi',
    searches: 5,
    searchers: 4,
    zeroRate: 0,
    previous: { searches: 0, searchers: 0, zeroRate: 0 },
  },
  {
    key: '=cmd',
    searches: 1200,
    searchers: 3,
    zeroRate: 1,
    previous: { searches: 1500, searchers: 3, zeroRate: 1 },
  },
];
const TOTALS = { searches: 4321, searchers: 1000, zeroRate: 0.5 };
const PREVIOUS = { searches: 4000, searchers: 1000, zeroRate: 0.4 };

/** The API: the calendar, then the report (a function of the query). */
function api(report: (q: Record<string, string>) => unknown) {
  return stubFetch((req: SeenRequest) =>
    req.url.startsWith('/app/admin/stats/meta') ? envelope(META) : envelope(report(queryOf(req.url))),
  );
}
const full = (q: Record<string, string>) => ({
  list: ROWS.map((r) => (q.compare === 'true' ? r : { ...r, previous: undefined })),
  total: 3,
  totals: TOTALS,
  ...(q.compare === 'true' ? { previousTotals: PREVIOUS } : {}),
  series: [],
});

const props: ReportListProps = {
  resource: 'stats/test',
  columns: [{ source: 'key', label: 'report.csvKey' }],
  figures: [
    { source: 'searches', label: 'report.f.searches' },
    { source: 'searchers', label: 'report.f.searchers' },
    { source: 'zeroRate', label: 'report.f.zeroRate', format: 'percent', lowerIsBetter: true },
  ],
  sort: { field: 'searches', order: 'DESC' },
  filename: 'keywords',
};

function mount(
  locale: 'zh-CN' | 'en-US' = 'zh-CN',
  extra: Partial<ReportListProps> = {},
  List: typeof ReportList = ReportList,
) {
  const i18n = createI18nProvider(locale);
  const messages = {
    csvKey: 'Keyword',
    f: { searches: 'Searches', searchers: 'Searchers', zeroRate: 'Zero rate' },
  };
  // the test's own column names, beside the real report messages
  const translate = i18n.translate;
  i18n.translate = (key: string, options?: any) =>
    key.startsWith('report.f.') || key === 'report.csvKey'
      ? key === 'report.csvKey'
        ? messages.csvKey
        : (messages.f as Record<string, string>)[key.slice(9)]
      : translate(key, options);
  return render(
    <AdminContext
      dataProvider={createDataProvider({ 'stats/test': 'admin/stats/reports/keywords' })}
      i18nProvider={i18n}
      store={memoryStore()}
    >
      <List {...props} {...extra} />
    </AdminContext>,
  );
}

const reports = (seen: SeenRequest[]) =>
  seen.filter((r) => r.url.includes('/reports/')).map((r) => queryOf(r.url));
const lastReport = (seen: SeenRequest[]) => reports(seen).at(-1)!;

/** A date picker's value box (its hidden input, which takes a whole day typed or pasted in the field's format). */
const dayBox = async (label: string) =>
  waitFor(() => {
    const input = screen
      .getAllByLabelText(label)
      .map((el) => el.closest('.MuiPickersInputBase-root')?.querySelector('input'))
      .find(Boolean);
    if (!input) throw new Error(`no date picker labelled ${label} yet`);
    return input;
  }); // the pickers load with the first one shown

// The file's first test pays the pickers' and the grid's first import: on a loaded machine, well past 30 s.
test('presets and a custom range ask for the right days in the tenant’s calendar', {
  timeout: 90_000,
}, async () => {
  const seen = api(full);
  mount();
  await screen.findByText('仙侠');
  expect(lastReport(seen)).toMatchObject({
    from: '2026-11-17',
    to: '2026-11-23',
    compare: 'true',
    sort: 'searches',
  });
  expect(screen.getByText('按时区 Asia/Shanghai 划分日期')).toBeTruthy();
  expect(screen.getByTestId('previous-period').textContent).toBe('上一周期 2026-11-10 至 2026-11-16');
  const cases: [string, string, string][] = [
    ['今天', '2026-11-23', '2026-11-23'],
    ['昨天', '2026-11-22', '2026-11-22'],
    ['近 30 天', '2026-10-25', '2026-11-23'],
    ['本月', '2026-11-01', '2026-11-23'],
    ['上月', '2026-10-01', '2026-10-31'],
    ['近 7 天', '2026-11-17', '2026-11-23'],
  ];
  for (const [label, from, to] of cases) {
    fireEvent.click(screen.getByRole('button', { name: label }));
    await waitFor(() => expect(lastReport(seen)).toMatchObject({ from, to }));
    expect(screen.getByRole('button', { name: label }).getAttribute('aria-pressed')).toBe('true');
  }
  // a custom range: the start typed, then the end; the preset buttons let go
  fireEvent.change(await dayBox('开始日期'), { target: { value: '2026-11-02' } });
  await waitFor(() => expect(lastReport(seen)).toMatchObject({ from: '2026-11-02', to: '2026-11-23' }));
  fireEvent.change(await dayBox('结束日期'), { target: { value: '2026-11-05' } });
  await waitFor(() => expect(lastReport(seen)).toMatchObject({ from: '2026-11-02', to: '2026-11-05' }));
  expect(screen.getByRole('button', { name: '自定义' }).getAttribute('aria-pressed')).toBe('true');
  expect(screen.getByTestId('previous-period').textContent).toBe('上一周期 2026-10-29 至 2026-11-01');
  // an end before the start, or a day after today, is refused and not asked for
  const asked = reports(seen).length;
  fireEvent.change(await dayBox('结束日期'), { target: { value: '2026-11-01' } });
  expect(await screen.findByText('开始日期不能晚于结束日期')).toBeTruthy();
  fireEvent.change(await dayBox('结束日期'), { target: { value: '2026-11-24' } });
  expect(await screen.findByText('请输入 2026-09-01 至 2026-11-23 之间的日期')).toBeTruthy();
  expect(reports(seen)).toHaveLength(asked);
  // comparison off: no compare in the query, no changes shown
  fireEvent.click(screen.getByRole('switch', { name: '与上一周期对比' }));
  await waitFor(() => expect(lastReport(seen).compare).toBe('false'));
  await waitFor(() => expect(screen.queryAllByTestId('delta')).toHaveLength(0));
});

test('each figure shows its change from the previous period: arrow, signs and words, not colour alone', async () => {
  api(full);
  mount();
  const row = (await screen.findByText('仙侠')).closest('tr')!;
  const cells = within(row).getAllByRole('cell');
  // 12 against 8: +4, +50%
  expect(cells[0].textContent).toBe('12▲ +4 (+50.0%)比上一周期增加 4（+50.0%），上一周期 8');
  // unchanged
  expect(cells[1].textContent).toBe('9→ 0与上一周期持平（9）');
  // a rate: percentage points and the relative change; a rise of a lower-is-better figure is bad (red)
  expect(cells[2].textContent).toBe(
    '25.0%▲ +5.0 个百分点 (+25.0%)比上一周期增加 5.0 个百分点（+25.0%），上一周期 20.0%',
  );
  const bad = within(cells[2]).getByTestId('delta');
  const good = within(cells[0]).getByTestId('delta');
  expect(getComputedStyle(bad).color).not.toBe(getComputedStyle(good).color);
  // from nothing: no percentage
  const fresh = within(screen.getByText('sci-fi').closest('tr') as HTMLElement).getAllByRole('cell');
  expect(fresh[0].textContent).toBe('5▲ +5比上一周期增加 5（上一周期为 0）');
  // a fall, grouped thousands
  const fall = within(screen.getByText('=cmd').closest('tr') as HTMLElement).getAllByRole('cell');
  expect(fall[0].textContent).toBe('1,200▼ −300 (−20.0%)比上一周期减少 300（−20.0%），上一周期 1,500');
});

test('the delta maths', () => {
  const pts = (v: string) => `${v} pts`;
  expect(compareFigure(12, 8)).toMatchObject({ diff: 4, ratio: 0.5, trend: 'up', good: true });
  expect(compareFigure(3, 4, true)).toMatchObject({ diff: -1, ratio: -0.25, trend: 'down', good: true });
  expect(compareFigure(5, 0)).toMatchObject({ diff: 5, ratio: null, trend: 'up' });
  expect(compareFigure(0, 0)).toMatchObject({ diff: 0, ratio: null, trend: 'flat', good: null });
  expect(compareFigure(0.3, 0.1).diff).toBe(0.2);
  expect(formatChange(compareFigure(0.3, 0.1), 'percent', 'en-US', pts)).toEqual({
    diff: '+20.0 pts',
    pct: '+200.0%',
  });
  expect(formatChange(compareFigure(2.25, 3), 'decimal', 'en-US')).toEqual({ diff: '−0.8', pct: '−25.0%' });
  expect(formatChange(compareFigure(10_000, 12_500), 'count', 'en-US')).toEqual({
    diff: '−2,500',
    pct: '−20.0%',
  });
  expect(formatFigure(0.125, 'percent', 'zh-CN')).toBe('12.5%');
  expect(formatFigure(null)).toBe('—');
});

test('the totals row shows the period’s totals (not the page’s sum) with their change', async () => {
  api(full);
  mount('en-US');
  const totals = await screen.findByTestId('totals');
  const cells = within(totals).getAllByRole('cell');
  expect(within(totals).getByRole('rowheader').textContent).toBe('Total');
  expect(cells[0].textContent).toBe('4,321▲ +321 (+8.0%)up 321 (+8.0%) from 4,000');
  expect(cells[2].textContent).toMatch(/^50\.0%▲ \+10\.0 pts \(\+25\.0%\)/);
});

test('sorting by any figure asks the API; a second click reverses the order', async () => {
  const seen = api(full);
  mount('en-US');
  await screen.findByText('仙侠');
  fireEvent.click(screen.getByRole('button', { name: 'Searchers' }));
  await waitFor(() => expect(lastReport(seen)).toMatchObject({ sort: 'searchers', order: 'desc' }));
  expect(screen.getByRole('columnheader', { name: /Searchers/ }).getAttribute('aria-sort')).toBe(
    'descending',
  );
  fireEvent.click(screen.getByRole('button', { name: /Searchers/ }));
  await waitFor(() => expect(lastReport(seen)).toMatchObject({ sort: 'searchers', order: 'asc' }));
});

test('the CSV has exactly the rows, columns and text of the screen, the totals last', async () => {
  api(full);
  mount('en-US');
  await screen.findByText('仙侠');
  // the screen, read back: the header, each row's cells (value, then change), the totals row
  const table = screen.getByRole('table');
  const head = within(table)
    .getAllByRole('columnheader')
    .map((th) => th.textContent);
  const text = (cell: HTMLElement) => {
    const delta = cell.querySelector('[data-testid="delta"] [aria-hidden]');
    const value = delta ? cell.firstChild?.textContent : cell.textContent;
    return delta ? [value, delta.textContent] : [value];
  };
  const shown = [...table.querySelectorAll('tbody tr, tfoot tr')].map((tr) =>
    [...tr.querySelectorAll('th, td')].flatMap((c) => text(c as HTMLElement)),
  );
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  await waitFor(() => expect(csv.files).toHaveLength(1));
  expect(csv.files[0].name).toBe('keywords-2026-11-17-2026-11-23');
  const lines = csv.files[0].text.replace(/^\uFEFF/, '').split('\r\n');
  expect(lines[0]).toBe(
    'Keyword,Searches,Searches (previous period),Searches (change),Searchers,Searchers (previous period),' +
      'Searchers (change),Zero rate,Zero rate (previous period),Zero rate (change)',
  );
  expect(head).toEqual(['Keyword', 'Searches', 'Searchers', 'Zero rate']);
  // CSV without the previous-period columns is the screen, cell for cell (a leading = defused)
  const parse = (line: string) =>
    [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)]
      .slice(0, -1)
      .map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"'));
  const rows = lines.slice(1).map(parse);
  expect(rows).toHaveLength(shown.length);
  expect(rows.map((r) => r.filter((_, i) => i === 0 || (i - 1) % 3 !== 1))).toEqual(
    shown.map((r) => r.map((c, i) => (i === 0 && c?.startsWith('=') ? `'${c}` : c))),
  );
  expect(rows[0]).toEqual([
    '仙侠',
    '12',
    '8',
    '▲ +4 (+50.0%)',
    '9',
    '9',
    '→ 0',
    '25.0%',
    '20.0%',
    '▲ +5.0 pts (+25.0%)',
  ]);
  expect(rows.at(-1)?.[0]).toBe('Total');
});

test('an empty period says so: no table rows, no totals, no export', async () => {
  api(() => ({ list: [], total: 0, totals: { searches: 0 }, series: [] }));
  mount();
  expect(await screen.findByText('该时间段没有数据')).toBeTruthy();
  expect(screen.getByRole('status').textContent).toContain('请换一个时间段');
  expect(screen.queryByTestId('totals')).toBeNull();
  expect(screen.getByRole('button', { name: '导出' })).toHaveProperty('disabled', true);
});

test('while the report loads a progress bar says so', async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  stubFetch(async (req) => {
    if (req.url.startsWith('/app/admin/stats/meta')) return envelope(META);
    await gate;
    return envelope(full({ compare: 'true' }));
  });
  mount();
  expect(await screen.findByRole('progressbar', { name: '正在加载报表' })).toBeTruthy();
  release();
  await screen.findByText('仙侠');
  expect(screen.queryByRole('progressbar')).toBeNull();
});

test('the chart above the table draws the series (MUI X Charts, loaded with the first chart)', async () => {
  stubResizeObserver();
  api((q) => ({
    ...full(q),
    series: [
      { date: '2026-11-22', searches: 10, searchers: 7, zeroRate: 0.1 },
      { date: '2026-11-23', searches: 14, searchers: 9, zeroRate: 0.2 },
    ],
  }));
  mount('en-US', {
    figures: props.figures.map((f) => (f.format === 'percent' ? { ...f, chart: false } : f)),
  });
  const chart = await screen.findByRole(
    'figure',
    { name: 'Chart of Searches, Searchers, 2026-11-22 – 2026-11-23' },
    { timeout: 20_000 },
  );
  expect(chart).toBeTruthy();
  // rates are left out of the chart (they would be flattened beside counts)
  expect(chart.textContent).not.toContain('Zero rate');
});

/** What the page showed at each of its changes: the report's rows, a skeleton, the chart. */
function watchPage() {
  const states: { rows: boolean; skeleton: boolean; chart: boolean }[] = [];
  const seen = () =>
    states.push({
      rows: !!screen.queryByText('仙侠'),
      skeleton: !!document.querySelector('.MuiSkeleton-root'),
      chart: !!document.querySelector('[data-testid="report-chart"]'),
    });
  const observer = new MutationObserver(seen);
  observer.observe(document.body, { subtree: true, childList: true });
  return { states, stop: () => observer.disconnect() };
}

/** ReportList as a screen first loads it: its chart's code not yet asked (an earlier test here drew a chart). */
async function freshReportList() {
  vi.resetModules();
  return import('../../src/components/ReportList');
}

const twoDays = (q: Record<string, string>) => ({
  ...full(q),
  series: [
    { date: '2026-11-22', searches: 10, searchers: 7, zeroRate: 0.1 },
    { date: '2026-11-23', searches: 14, searchers: 9, zeroRate: 0.2 },
  ],
});

/** A report with a chart, its chart's code loaded before the report is mounted: what the page showed meanwhile. */
async function drawnWithChartLoaded() {
  stubResizeObserver();
  api(twoDays);
  const fresh = await freshReportList();
  await fresh.preloadReportChart();
  const page = watchPage();
  mount('zh-CN', {}, fresh.ReportList);
  await screen.findByRole('figure', { name: /2026-11-22/ }, { timeout: 20_000 });
  page.stop();
  return page.states;
}

test('a chart whose code came before the answer is drawn without a skeleton first', async () => {
  // a lazy component suspends on its first render even when its code is there: its skeleton showed for as long as
  // React holds a fallback, after the rows
  expect((await drawnWithChartLoaded()).some((s) => s.skeleton)).toBe(false);
});

test('the rows are shown before the chart is drawn (drawing it does not hold them back)', async () => {
  expect((await drawnWithChartLoaded()).some((s) => s.rows && !s.chart)).toBe(true);
});

test('a report screen’s code is loaded with the calendar asked at once, not after the screen renders', async () => {
  const seen = api(full);
  queryClient.clear();
  let release: (m: { Screen: string }) => void = () => {};
  const code = new Promise<{ Screen: string }>((r) => {
    release = r;
  });
  const loading = loadReportScreen(() => code);
  // asked while the screen's code is still on its way
  expect(seen.map((r) => r.url)).toContain('/app/admin/stats/meta');
  await waitFor(() => expect(queryClient.getQueryData(['report-meta', 'admin/stats/meta'])).toEqual(META));
  release({ Screen: 'the screen' });
  expect(await loading).toEqual({ Screen: 'the screen' });
});

test('a report answered whole (a domain’s 168 hours) pages on the screen, a day a page at first', async () => {
  const hours = Array.from({ length: 168 }, (_, i) => ({
    key: `2026-11-${String(17 + Math.floor(i / 24)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:00`,
    searches: i,
    searchers: i,
    zeroRate: 0,
  }));
  api(() => ({ list: hours, total: 168, totals: TOTALS, series: [] }));
  mount('en-US', { paged: false, sort: { field: 'key', order: 'ASC' } });
  await screen.findByText('2026-11-17 00:00');
  const body = () => within(screen.getAllByRole('rowgroup')[1]);
  expect(body().getAllByRole('row')).toHaveLength(24);
  expect(body().queryByText('2026-11-18 00:00')).toBeNull();
  expect(screen.getByText('1-24 of 168')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
  await screen.findByText('2026-11-18 00:00');
  expect(body().getAllByRole('row')).toHaveLength(24);
  expect(body().queryByText('2026-11-17 23:00')).toBeNull();
  expect(screen.getByText('25-48 of 168')).toBeTruthy();
});

test('a report answered whole leaves out the hours not yet come: the latest first is the present hour', async () => {
  const now = new Date();
  const present = presentKeyOf(now);
  const past = presentKeyOf(new Date(now.getTime() - 3_600_000));
  const future = presentKeyOf(new Date(now.getTime() + 3_600_000));
  const rows = [future, present, past].map((key, i) => ({ key, searches: i, searchers: i, zeroRate: 0 }));
  api(() => ({ list: rows, total: 3, totals: TOTALS, series: [] }));
  mount('en-US', { paged: false, sort: { field: 'key', order: 'DESC' } });
  await screen.findByText(present);
  const body = within(screen.getAllByRole('rowgroup')[1]);
  expect(body.getAllByRole('row').map((r) => r.querySelector('td,th')?.textContent)).toEqual([present, past]);
  expect(screen.queryByText(future)).toBeNull();
  expect(screen.getByText('1-2 of 2')).toBeTruthy();
});

test('the chart draws nothing for hours (or days) not yet come, and keeps equal lines apart', async () => {
  const { lineData, lineStyles } = await import('../../src/components/ReportChart');
  // 2026-11-23T02:30Z is 10:30 in Shanghai
  const present = presentKey(new Date('2026-11-23T02:30:00Z'), 'Asia/Shanghai');
  expect(present).toBe('2026-11-23 10:00');
  expect(isFuture('2026-11-23 10:00', present)).toBe(false);
  expect(isFuture('2026-11-23 11:00', present)).toBe(true);
  expect(isFuture('2026-11-23', present)).toBe(false); // today, a day's point
  expect(isFuture('2026-11-24', present)).toBe(true);
  const series = ['09:00', '10:00', '11:00', '12:00'].map((h) => ({ date: `2026-11-23 ${h}`, pv: 0, uv: 3 }));
  expect(lineData(series, 'uv', present)).toEqual([3, 3, null, null]);
  expect(lineData(series, 'pv', present)).toEqual([0, 0, null, null]);
  // no two of the first four lines are drawn alike (visitors and addresses are often equal)
  const styles = Object.values(lineStyles(props.figures.concat({ source: 'x', label: 'x' })));
  expect(new Set(styles.map((s) => JSON.stringify(s))).size).toBe(4);
});
