// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, TextInput, testDataProvider } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, test, vi } from 'vitest';
import { ApiFailure } from '../../src/api/http';
import { type PageAnswer, walkPages } from '../../src/api/pages';
import { clearUser, loadUser } from '../../src/api/session';
import { EditPermissionContext } from '../../src/auth/permission';
import { type Column, ColumnTreeList, columnTreeScreens } from '../../src/components/ColumnTree';
import { ConfirmDialog } from '../../src/components/ConfirmDialog';
import { EditPage } from '../../src/components/EditPage';
import { createI18nProvider } from '../../src/i18n';
import { envelope, stubFetch } from './api-fetch-stub';

/** Issue #10 §5: the page walker, the edit page, the confirm dialog and the column tree, each written once. */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A list of `n` rows answered a page at a time; `capped` answers a lower-bound total as the movie list does. */
function lister(n: number, { capped = false } = {}) {
  const pages: number[] = [];
  const read = async (page: number, pageSize: number): Promise<PageAnswer<number>> => {
    pages.push(page);
    const data = Array.from({ length: n }, (_, i) => i).slice((page - 1) * pageSize, page * pageSize);
    return capped ? { data, total: 1000, meta: { totalExact: false } } : { data, total: n };
  };
  return { read, pages };
}

describe('walkPages', () => {
  it('reads pages of 100 until the list ends; an exact total saves the empty last request', async () => {
    const all = lister(250);
    expect(await walkPages(all.read)).toEqual({ rows: Array.from({ length: 250 }, (_, i) => i), total: 250 });
    expect(all.pages).toEqual([1, 2, 3]);
    const even = lister(200);
    expect((await walkPages(even.read)).rows).toHaveLength(200);
    expect(even.pages).toEqual([1, 2]);
  });

  it('a capped total (a lower bound) does not end the walk: a short page does', async () => {
    const capped = lister(1234, { capped: true });
    const { rows } = await walkPages(capped.read, { limit: 10_000 });
    expect(rows).toHaveLength(1234);
    expect(capped.pages).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('starts at any row and stops at the limit, reading only the pages it needs', async () => {
    const list = lister(1000);
    const { rows } = await walkPages(list.read, { from: 150, limit: 150 });
    expect(rows[0]).toBe(150);
    expect(rows.at(-1)).toBe(299);
    expect(rows).toHaveLength(150);
    expect(list.pages).toEqual([2, 3]);
  });
});

test('the data provider walks with it: page 2 of 150 rows is rows 150–299, not the second page of 100', async () => {
  const { createDataProvider } = await import('../../src/api/dataProvider');
  const seen = stubFetch((req) => {
    const url = new URL(req.url, 'http://x');
    const page = Number(url.searchParams.get('page'));
    const size = Number(url.searchParams.get('pageSize'));
    const list = Array.from({ length: 1000 }, (_, i) => ({ id: i })).slice((page - 1) * size, page * size);
    return envelope({ list, total: 1000 });
  });
  const provider = createDataProvider({ things: 'admin/things' });
  const { data, total } = await provider.getList('things', {
    pagination: { page: 2, perPage: 150 },
    sort: { field: 'id', order: 'ASC' },
    filter: {},
  });
  expect(total).toBe(1000);
  expect(data.map((r) => r.id)).toEqual(Array.from({ length: 150 }, (_, i) => 150 + i));
  expect(seen.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['2', '3']);
});

describe('ConfirmDialog', () => {
  const wrap = (ui: React.ReactNode) =>
    render(<AdminContext i18nProvider={createI18nProvider('en-US')}>{ui}</AdminContext>);

  it('names itself by its title, asks, and confirms or cancels', () => {
    const onClose = vi.fn();
    const onConfirm = vi.fn();
    wrap(
      <ConfirmDialog
        open
        title="Delete"
        question="Delete 3 items?"
        onClose={onClose}
        onConfirm={onConfirm}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText('Delete 3 items?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('holds confirm while something is missing, and offers only cancel when nothing can be done', () => {
    const { rerender } = wrap(
      <ConfirmDialog open title="Move" onClose={() => undefined} onConfirm={() => undefined} disabled>
        <input aria-label="Where" />
      </ConfirmDialog>,
    );
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Where' })).toBeTruthy();
    rerender(
      <AdminContext i18nProvider={createI18nProvider('en-US')}>
        <ConfirmDialog
          open
          title="Move"
          onClose={() => undefined}
          onConfirm={() => undefined}
          confirmLabel={null}
        />
      </AdminContext>,
    );
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });
});

test('EditPage: a save answered with a stale version shows the reload offer, and reload reads the record again', async () => {
  const getOne = vi.fn(async () => ({ data: { id: 3, name: 'HLS main', version: 2 } }));
  const update = vi.fn(async () => {
    throw new ApiFailure({ code: 40900, msg: 'stale', data: null });
  });
  render(
    <MemoryRouter initialEntries={['/movie/sources/edit/3']}>
      <AdminContext
        dataProvider={testDataProvider({ getOne, update } as never)}
        i18nProvider={createI18nProvider('en-US')}
      >
        <ResourceContextProvider value="movie/sources">
          <Routes>
            <Route
              path="/movie/sources/edit/:id"
              element={
                <EditPage title="Edit">
                  <TextInput source="name" />
                </EditPage>
              }
            />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
  fireEvent.change(await screen.findByDisplayValue('HLS main'), { target: { value: 'HLS backup' } });
  expect(screen.queryByText(/Someone else changed this record/)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText(/Someone else changed this record/)).toBeTruthy();
  expect(update).toHaveBeenCalledWith('movie/sources', expect.objectContaining({ id: '3' }));
  const reads = getOne.mock.calls.length;
  fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
  await waitFor(() => expect(getOne.mock.calls.length).toBeGreaterThan(reads));
  await waitFor(() => expect(screen.queryByText(/Someone else changed this record/)).toBeNull());
});

describe('the column tree screens (components outside the factory)', () => {
  beforeEach(async () => {
    stubFetch(envelope({ uid: 1, account: 'admin', nickname: '', role: 'admin' }));
    localStorage.setItem('token', 't');
    localStorage.setItem('uid', '1');
    clearUser();
    await loadUser();
  });

  // 122 columns: two pages. "Series" comes last, on page 2: it shows only if the walk read that page.
  const columns: Column[] = [
    { id: 1, parentId: null, name: 'Films', sort: 0, visible: true, itemCount: 4 },
    ...Array.from({ length: 120 }, (_, i) => ({
      id: 10 + i,
      parentId: 1,
      name: `Sub ${i}`,
      sort: i,
      visible: true,
      itemCount: 0,
    })),
    { id: 2, parentId: null, name: 'Series', sort: 1, visible: true, itemCount: 4 },
  ];

  function tree(ui: React.ReactNode, getList = vi.fn()) {
    getList.mockImplementation(
      async (_r: string, { pagination }: { pagination: { page: number; perPage: number } }) => ({
        data: columns.slice((pagination.page - 1) * pagination.perPage, pagination.page * pagination.perPage),
        total: columns.length,
      }),
    );
    render(
      <MemoryRouter>
        <AdminContext
          dataProvider={testDataProvider({ getList } as never)}
          i18nProvider={createI18nProvider('en-US')}
        >
          <ResourceContextProvider value="movie/category">
            {/* as the route guard sets it: the screen's section is movies (deleting a column is movie.settings) */}
            <EditPermissionContext.Provider value={{ need: 'movie.read', edit: 'movie.settings' }}>
              {ui}
            </EditPermissionContext.Provider>
          </ResourceContextProvider>
        </AdminContext>
      </MemoryRouter>,
    );
    return getList;
  }

  it('reads every column over the pages and nests them; a section binds the same component by its declaration', async () => {
    const getList = tree(<ColumnTreeList resource="movie/category" title="resources.movie.menu.category" />);
    expect(await screen.findByText('Films')).toBeTruthy();
    expect(getList.mock.calls.map((c) => c[1].pagination)).toEqual([
      { page: 1, perPage: 100 },
      { page: 2, perPage: 100 },
    ]);
    expect(await screen.findByText('Series')).toBeTruthy();
    expect(screen.queryByText('Sub 0')).toBeNull(); // collapsed
    fireEvent.click(screen.getByRole('button', { name: 'Show sub-columns of Films' }));
    expect(await screen.findByText('Sub 0')).toBeTruthy();
    cleanup();

    const { CategoryList } = columnTreeScreens({
      resource: 'movie/category',
      title: 'resources.movie.menu.category',
    });
    tree(<CategoryList />);
    expect(await screen.findByText('Series')).toBeTruthy();
  }, 20_000);

  it('deleting a column: with sub-columns it only explains; with items it asks where to move them first', async () => {
    tree(<ColumnTreeList resource="movie/category" title="resources.movie.menu.category" />);
    const films = (await screen.findByText('Films')).closest('tr') as HTMLElement;
    fireEvent.click(within(films).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/has sub-columns/)).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Cancel']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const series = screen.getByText('Series').closest('tr') as HTMLElement;
    fireEvent.click(within(series).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/still has 4/)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Move, then delete' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
  }, 20_000);
});

test('a table paged outside react-admin’s lists counts in the interface’s language (issue #52: "1–3 of 3")', async () => {
  const { LocalTablePagination } = await import('../../src/layout/listParts');
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider('zh-CN')}>
      <LocalTablePagination
        count={3}
        page={0}
        rowsPerPage={20}
        rowsPerPageOptions={[20, 50]}
        onPageChange={() => undefined}
      />
    </AdminContext>,
  );
  expect(screen.getByText('第 1-3 条，共 3 条')).toBeTruthy();
  expect(screen.getByText('每页行数：')).toBeTruthy();
  expect(screen.getByRole('button', { name: '转到下一页' })).toBeTruthy();
  expect(screen.queryByText(/of 3/)).toBeNull();
});
