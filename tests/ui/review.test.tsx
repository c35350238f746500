// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, ListContextProvider, ResourceContextProvider, TextInput } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createDataProvider } from '../../src/api/dataProvider';
import { clearUser, loadUser } from '../../src/api/session';
import { EditPermissionContext } from '../../src/auth/permission';
import { EditPage } from '../../src/components/EditPage';
import { ReviewBulkButtons } from '../../src/components/ReviewBulkButtons';
import { ReviewStatusChip } from '../../src/components/ReviewStatus';
import { ReviewToolbar } from '../../src/components/ReviewToolbar';
import type { ReviewDecl } from '../../src/components/review';
import { createI18nProvider } from '../../src/i18n';
import { MOVIE_REVIEW } from '../../src/resources/movie/names';
import { NOVEL_REVIEW } from '../../src/resources/novel/names';
import { envelope, type SeenRequest } from './api-fetch-stub';

/** Issue #10 §1: one review toolbar and one set of review batch buttons, declared per section. */

let record: Record<string, unknown>;
let role: 'admin' | 'user';
let seen: SeenRequest[];
let routes: Record<string, (req: SeenRequest) => Response>;

beforeEach(async () => {
  record = { id: 5, title: 'Night Rain', status: 'pending', version: 3 };
  role = 'admin';
  seen = [];
  routes = {
    'GET admin/info': () => envelope({ uid: 1, account: 'admin', nickname: '', role }),
    'GET admin/novel/novels/5': () => envelope(record),
    'PUT admin/novel/novels/5': (req) => {
      record = { ...record, ...(req.body as object), version: (record.version as number) + 1 };
      return envelope(record);
    },
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
      const path = new URL(req.url, 'http://x').pathname.replace(/^\/app\//, '');
      const handler = routes[`${req.method} ${path}`];
      return handler ? handler(req) : envelope(null, 40400, `no stub for ${req.method} ${path}`);
    }),
  );
  localStorage.setItem('token', 't');
  localStorage.setItem('uid', '1');
  clearUser();
  await loadUser();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const writes = () =>
  seen.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${new URL(r.url, 'http://x').pathname}`);

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function editPage(review: ReviewDecl = NOVEL_REVIEW) {
  const dataProvider = createDataProvider({ 'novel/review': 'admin/novel/novels' });
  return render(
    <MemoryRouter initialEntries={['/novel/review/edit/5']}>
      <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('en-US')}>
        <ResourceContextProvider value="novel/review">
          {/* as the route guard sets it: the novels section (deleting a novel is novel.settings) */}
          <EditPermissionContext.Provider value={{ need: 'novel.read' }}>
            <Routes>
              <Route
                path="/novel/review/edit/:id"
                element={
                  <EditPage id={5} redirect={false} toolbar={<ReviewToolbar review={review} />}>
                    <TextInput source="title" />
                  </EditPage>
                }
              />
              <Route path="*" element={<Where />} />
            </Routes>
          </EditPermissionContext.Provider>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

const STALE_TEXT = /Someone else changed this record/;

test('the toolbar offers what the status allows, from the declaration', async () => {
  editPage();
  await screen.findByDisplayValue('Night Rain');
  expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Take offline' })).toBeNull();
  cleanup();

  record = { ...record, status: 'online' };
  editPage(MOVIE_REVIEW);
  await screen.findByDisplayValue('Night Rain');
  expect(screen.getByRole('button', { name: 'Take offline' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy(); // admins
});

test('an action saves the typed changes first, then runs with the saved version, and leaves for the list', async () => {
  routes['POST admin/novel/novels/5/approve'] = () => envelope({ ...record, status: 'online' });
  editPage();
  const title = await screen.findByDisplayValue('Night Rain');
  fireEvent.change(title, { target: { value: 'Night Rain II' } });
  fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
  const dialog = await screen.findByRole('dialog', { name: 'Approve' });
  expect(within(dialog).getByText('Approve "Night Rain"? It goes online at once.')).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() =>
    expect(writes()).toEqual(['PUT /app/admin/novel/novels/5', 'POST /app/admin/novel/novels/5/approve']),
  );
  expect((seen.find((r) => r.method === 'PUT')?.body as { title: string }).title).toBe('Night Rain II');
  expect(seen.at(-1)?.body).toEqual({ version: 4 });
  expect((await screen.findByTestId('where')).textContent).toBe('/novel/review');
});

test('reject needs a reason: confirm stays disabled until one is given, and the reason goes with the version', async () => {
  routes['POST admin/novel/novels/5/reject'] = () => envelope({ ...record, status: 'rejected' });
  editPage();
  await screen.findByDisplayValue('Night Rain');
  fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reject' });
  const confirm = within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason for rejection/ }), {
    target: { value: '   ' },
  });
  expect(confirm.disabled).toBe(true);
  fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason for rejection/ }), {
    target: { value: 'Copied text' },
  });
  expect(confirm.disabled).toBe(false);
  fireEvent.click(confirm);
  await waitFor(() => expect(writes()).toEqual(['POST /app/admin/novel/novels/5/reject']));
  expect(seen.at(-1)?.body).toEqual({ reason: 'Copied text', version: 3 });
});

test('a refused transition (40900 saying what was refused) does not offer a reload; a stale version does', async () => {
  // The API refuses: someone took the novel online meanwhile. Its message says so; reloading would not help.
  routes['POST admin/novel/novels/5/approve'] = () =>
    envelope({ id: null, status: 'online', action: 'approve' }, 40900, 'Online novels cannot be approved');
  editPage();
  await screen.findByDisplayValue('Night Rain');
  fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(writes()).toEqual(['POST /app/admin/novel/novels/5/approve']));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false);
  expect(screen.queryByText(STALE_TEXT)).toBeNull();
  expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();

  // A stale version (40900 without details): someone else saved first, so the page offers the reload.
  routes['POST admin/novel/novels/5/approve'] = () => envelope(null, 40900, 'Conflict');
  fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText(STALE_TEXT)).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
});

/** A section that is not there yet declares its own workflow: only the declaration differs. */
const COMMENTS: ReviewDecl<'pending' | 'shown' | 'hidden'> = {
  messages: 'resources.novel/review',
  statusMessages: 'resources.novel.status',
  statusColors: { shown: 'success' },
  transitions: { pending: ['approve', 'reject'], shown: ['offline'], hidden: [] },
  reasonRequired: [],
  backToList: ['approve', 'reject'],
  warn: ['reject', 'offline'],
};

function bulk(children: ReactNode, selectedIds = [1, 2]) {
  const dataProvider = createDataProvider({ 'novel/review': 'admin/novel/novels' });
  routes['POST admin/novel/novels/batch'] = () => envelope({ changed: selectedIds.length });
  return render(
    <MemoryRouter>
      <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('en-US')}>
        <ResourceContextProvider value="novel/review">
          <EditPermissionContext.Provider value={{ need: 'novel.read' }}>
            <ListContextProvider value={{ selectedIds, onUnselectItems: () => undefined } as never}>
              {children}
            </ListContextProvider>
          </EditPermissionContext.Provider>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

test('batch buttons: the declared actions in order, the section’s own after them, delete for admins last', async () => {
  bulk(
    <ReviewBulkButtons review={NOVEL_REVIEW} actions={['approve', 'reject', 'offline', 'online']}>
      <button type="button">Extra</button>
    </ReviewBulkButtons>,
  );
  const names = screen.getAllByRole('button').map((b) => b.textContent);
  expect(names).toEqual(['Approve', 'Reject', 'Take offline', 'Put online', 'Extra', 'Delete']);
  cleanup();

  role = 'user';
  clearUser();
  await loadUser();
  bulk(<ReviewBulkButtons review={NOVEL_REVIEW} actions={['approve']} />);
  expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve']);
});

test('batch: a reason is asked only where the declaration requires one; the batch carries the ids and the body', async () => {
  bulk(<ReviewBulkButtons review={COMMENTS} actions={['reject']} deletable={false} />);
  fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reject' });
  expect(within(dialog).getByText('Reject 2 novel(s)?')).toBeTruthy();
  expect(within(dialog).queryByRole('textbox')).toBeNull();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(writes()).toEqual(['POST /app/admin/novel/novels/batch']));
  expect(seen.at(-1)?.body).toEqual({ action: 'reject', ids: [1, 2] });
  cleanup();

  seen.length = 0;
  bulk(<ReviewBulkButtons review={NOVEL_REVIEW} actions={['reject']} deletable={false} />);
  fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
  const asked = await screen.findByRole('dialog', { name: 'Reject' });
  const confirm = within(asked).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  fireEvent.change(within(asked).getByRole('textbox'), { target: { value: 'Spam' } });
  fireEvent.click(confirm);
  await waitFor(() => expect(writes()).toEqual(['POST /app/admin/novel/novels/batch']));
  expect(seen.at(-1)?.body).toEqual({ reason: 'Spam', action: 'reject', ids: [1, 2] });
});

test('the status chip names the status from the declaration; a section may colour its own statuses', () => {
  render(
    <AdminContext i18nProvider={createI18nProvider('en-US')}>
      <ReviewStatusChip review={NOVEL_REVIEW} status="rejected" />
      <ReviewStatusChip review={COMMENTS} status="shown" />
      <ReviewStatusChip review={COMMENTS} status="hidden" />
    </AdminContext>,
  );
  expect(screen.getByText('Rejected').closest('.MuiChip-root')?.className).toMatch(/colorError/);
  expect(screen.getByText('resources.novel.status.shown').closest('.MuiChip-root')?.className).toMatch(
    /colorSuccess/,
  );
  expect(screen.getByText('resources.novel.status.hidden').closest('.MuiChip-root')?.className).toMatch(
    /colorDefault/,
  );
});
