// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  AdminContext,
  type DataProvider,
  Form,
  ListContextProvider,
  RecordContextProvider,
  ResourceContextProvider,
  testDataProvider,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, beforeEach, expect, onTestFinished, test, vi } from 'vitest';
import { clearUser } from '../../src/api/session';
import { csvCell, ExportCsvButton, toCsv } from '../../src/components/ExportCsvButton';
import { createI18nProvider } from '../../src/i18n';
import { ActressPicker } from '../../src/resources/actresses/ActressPicker';
import { DeleteActressButton } from '../../src/resources/actresses/DeleteActressButton';
import { ScreenCss, screenTheme, warmUpScreens } from './warm-up';

/** The whole "table" the fake server searches: the picker must never load it, only ask the server. */
const TABLE = [
  { id: 1, name: '林若溪', aliases: ['Lin Ruoxi'], avatar: '', movieCount: 5 },
  { id: 2, name: '苏若兰', aliases: [], avatar: '', movieCount: 2 },
  { id: 3, name: '佐藤美月', aliases: ['Mizuki Sato'], avatar: '', movieCount: 9 },
];

function fakeProvider() {
  return testDataProvider({
    getList: vi.fn(async (_resource: string, params: any) => {
      const q = (params.filter?.q ?? '').toLowerCase();
      const hits = TABLE.filter(
        (a) => !q || a.name.includes(q) || a.aliases.some((alias) => alias.toLowerCase().includes(q)),
      );
      return { data: hits.slice(0, params.pagination.perPage), total: hits.length };
    }),
    getMany: vi.fn(async (_resource: string, params: any) => ({
      data: TABLE.filter((a) => params.ids.map(Number).includes(a.id)),
    })),
  } as Partial<DataProvider>) as DataProvider & {
    getList: ReturnType<typeof vi.fn>;
    getMany: ReturnType<typeof vi.fn>;
  };
}

function Watch() {
  const ids = useWatch({ name: 'actressIds' });
  return <output data-testid="ids">{JSON.stringify(ids)}</output>;
}

warmUpScreens();

function wrap(dataProvider: DataProvider, children: ReactNode, resource = 'movie/review') {
  return render(
    <ScreenCss>
      <AdminContext
        dataProvider={dataProvider}
        i18nProvider={createI18nProvider('zh-CN')}
        theme={screenTheme}
      >
        <ResourceContextProvider value={resource}>{children}</ResourceContextProvider>
      </AdminContext>
    </ScreenCss>,
  );
}

const envelope = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  clearUser();
  localStorage.setItem('token', 't');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

test('ActressPicker: the chosen ones show as named chips; typing searches the server; a pick adds her id', async () => {
  const dataProvider = fakeProvider();
  wrap(
    dataProvider,
    <Form record={{ id: 7, actressIds: [1] }}>
      <ActressPicker />
      <Watch />
    </Form>,
  );
  // The chosen one is read by id (one getMany) and shown by name.
  expect(await screen.findByRole('button', { name: '林若溪' })).toBeTruthy();
  expect(dataProvider.getMany).toHaveBeenCalledWith('actress/list', expect.objectContaining({ ids: [1] }));

  const input = screen.getByRole('combobox', { name: '女优' });
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: 'mizuki' } });
  // The server is asked with q, ten suggestions, the most prolific first: never the whole table.
  await waitFor(() =>
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'actress/list',
      expect.objectContaining({
        filter: { q: 'mizuki' },
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'movieCount', order: 'DESC' },
      }),
    ),
  );
  for (const [, params] of dataProvider.getList.mock.calls)
    expect(params.pagination.perPage).toBeLessThanOrEqual(10);
  const option = await screen.findByRole('option', { name: /佐藤美月/ });
  expect(option.textContent).toContain('Mizuki Sato');
  expect(option.textContent).toContain('9 部作品');
  fireEvent.click(option);
  await waitFor(() => expect(screen.getByTestId('ids').textContent).toBe('[1,3]'));
  expect(await screen.findByRole('button', { name: '佐藤美月' })).toBeTruthy();

  fireEvent.change(input, { target: { value: '若' } });
  await waitFor(() =>
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'actress/list',
      expect.objectContaining({ filter: { q: '若' } }),
    ),
  );
  expect(await screen.findByRole('option', { name: /苏若兰/ })).toBeTruthy();
});

test('CSV cells: quoted when needed, formulas defused; the file has a BOM and translated headers', () => {
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  expect(csvCell('-1')).toBe("'-1");
  expect(csvCell(null)).toBe('');
  const csv = toCsv(
    [{ id: 1, name: '林若溪' }],
    [{ label: 'k.name', value: (r) => r.name }],
    (k) => `T:${k}`,
  );
  expect(csv).toBe('\uFEFFT:k.name\r\n林若溪');
});

test('the CSV export walks the list 100 rows a page with the list filter and sort, not one page the API refuses', async () => {
  const pages = [
    Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: `n${i}` })),
    [{ id: 101, name: 'last' }],
  ];
  const getList = vi.fn(async (_r: string, params: any) => ({
    data: pages[params.pagination.page - 1] ?? [],
    total: 101,
  }));
  const dataProvider = testDataProvider({ getList } as Partial<DataProvider>);
  const created: string[] = [];
  const original = URL.createObjectURL;
  URL.createObjectURL = (b: Blob) => {
    created.push(String(b.size));
    return 'blob:x';
  };
  onTestFinished(() => {
    URL.createObjectURL = original;
  });
  wrap(
    dataProvider,
    <ListContextProvider
      value={
        {
          resource: 'actress/list',
          filter: undefined,
          filterValues: { region: 'jp' },
          sort: { field: 'movieCount', order: 'DESC' },
          total: 101,
        } as any
      }
    >
      <ExportCsvButton columns={[{ label: 'x', value: (r) => r.id }]} filename="a" done="done" />
    </ListContextProvider>,
    'actress/list',
  );
  fireEvent.click(screen.getByRole('button', { name: '导出' }));
  await waitFor(() => expect(getList).toHaveBeenCalledTimes(2));
  expect(getList.mock.calls.map(([, p]) => p.pagination)).toEqual([
    { page: 1, perPage: 100 },
    { page: 2, perPage: 100 },
  ]);
  expect(getList.mock.calls[0][1]).toMatchObject({
    filter: { region: 'jp' },
    sort: { field: 'movieCount', order: 'DESC' },
  });
  await waitFor(() => expect(created.length).toBe(1));
});

test('deleting an actress reads her current number of movies; a refusal (linked meanwhile) asks again with force', async () => {
  const getOne = vi.fn(async () => ({ data: { id: 5, name: '林若溪', movieCount: 0 } }));
  const dataProvider = testDataProvider({ getOne } as Partial<DataProvider>);
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      return calls.length === 1
        ? envelope({ code: 40900, msg: '该女优关联了 4 部影片', data: { movieCount: 4 } })
        : envelope({ code: 20000, msg: 'ok', data: { id: 5, unlinked: 4 } });
    }),
  );
  wrap(
    dataProvider,
    <RecordContextProvider value={{ id: 5, name: '林若溪', movieCount: 2 }}>
      <DeleteActressButton />
    </RecordContextProvider>,
    'actress/list',
  );
  fireEvent.click(screen.getByRole('button', { name: '删除女优' }));
  const dialog = await screen.findByRole('dialog');
  // The page said 2; the server says 0 now: a plain question, and a delete without force.
  await waitFor(() => expect(dialog.textContent).toContain('删除「林若溪」？此操作不可撤销。'));
  expect(getOne).toHaveBeenCalledWith('actress/list', { id: 5 });
  fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
  await waitFor(() => expect(dialog.textContent).toContain('她关联的 4 部影片将同时解除关联'));
  fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
  await waitFor(() => expect(calls).toHaveLength(2));
  expect(calls).toEqual(['DELETE /app/admin/actresses/5', 'DELETE /app/admin/actresses/5?force=true']);
});
