// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  AdminContext,
  ListContextProvider,
  RecordContextProvider,
  ResourceContextProvider,
  testDataProvider,
} from 'react-admin';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearUser, loadUser, switchRole } from '../../src/api/session';
import { Permission } from '../../src/auth/permission';
import { createI18nProvider } from '../../src/i18n';
import { ChangePasswordDialog } from '../../src/layout/ChangePasswordDialog';
import { OperatorBulkActions } from '../../src/resources/setting/operators/BulkActions';
import { StateButton } from '../../src/resources/setting/operators/StateButton';
import { warmUpScreens } from './warm-up';

const envelope = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

const dataProvider = testDataProvider({
  action: vi.fn(async () => ({})),
  batch: vi.fn(async () => ({ changed: 2 })),
} as never) as ReturnType<typeof testDataProvider> & {
  action: ReturnType<typeof vi.fn>;
  batch: ReturnType<typeof vi.fn>;
};

function wrap(children: ReactNode) {
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('zh-CN')}>
      <ResourceContextProvider value="setting/operators">{children}</ResourceContextProvider>
    </AdminContext>,
  );
}

beforeEach(async () => {
  localStorage.setItem('token', 't');
  localStorage.setItem('uid', '1');
  clearUser();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      envelope({ code: 20000, msg: 'ok', data: { uid: 1, account: 'admin', nickname: '', role: 'admin' } }),
    ),
  );
  await loadUser();
  dataProvider.action.mockClear();
  dataProvider.batch.mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

warmUpScreens();

test('an enabled operator offers only 停用, a disabled one only 启用, and never for yourself', async () => {
  const { unmount } = wrap(
    <RecordContextProvider value={{ id: 2, disabled: false }}>
      <StateButton />
    </RecordContextProvider>,
  );
  fireEvent.click(await screen.findByRole('button', { name: '停用' }));
  expect(screen.queryByRole('button', { name: '启用' })).toBeNull();
  await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith('setting/operators', 2, 'disable'));
  unmount();
  const second = wrap(
    <RecordContextProvider value={{ id: 3, disabled: true }}>
      <StateButton />
    </RecordContextProvider>,
  );
  expect(await screen.findByRole('button', { name: '启用' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: '停用' })).toBeNull();
  second.unmount();
  wrap(
    <RecordContextProvider value={{ id: 1, disabled: false }}>
      <StateButton />
    </RecordContextProvider>,
  );
  expect(screen.queryByRole('button')).toBeNull();
});

test('<Permission> keeps its children for a role holding the permission and removes them after switching to user', async () => {
  wrap(
    <Permission need="operators.settings">
      <p>ADMIN ONLY</p>
    </Permission>,
  );
  expect(screen.getByText('ADMIN ONLY')).toBeTruthy();
  switchRole('user');
  await waitFor(() => expect(screen.queryByText('ADMIN ONLY')).toBeNull());
});

test('a bulk action asks for confirmation, then runs one batch call', async () => {
  const list = { selectedIds: [2, 3], onUnselectItems: vi.fn() } as never;
  wrap(
    <ListContextProvider value={list}>
      <OperatorBulkActions />
    </ListContextProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: '停用' }));
  expect(await screen.findByText('确定停用 2 个账号？他们将被登出。')).toBeTruthy();
  expect(dataProvider.batch).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: '确认' }));
  await waitFor(() =>
    expect(dataProvider.batch).toHaveBeenCalledWith('setting/operators', 'disable', [2, 3], {}),
  );
});

test('change my password: the confirmation must match, and a wrong old password shows beside its field', async () => {
  wrap(<ChangePasswordDialog open onClose={() => {}} />);
  const field = (label: string) => screen.getByLabelText(label);
  fireEvent.change(field('原密码'), { target: { value: 'old-pass-1' } });
  fireEvent.change(field('新密码'), { target: { value: 'new-pass-1' } });
  fireEvent.change(field('确认新密码'), { target: { value: 'new-pass-2' } });
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
  const fetch = vi.fn(async () =>
    envelope({ code: 40000, msg: '输入有误', data: { fields: { oldPassword: '原密码不正确' } } }),
  );
  vi.stubGlobal('fetch', fetch);
  fireEvent.change(field('确认新密码'), { target: { value: 'new-pass-1' } });
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findByText('原密码不正确')).toBeTruthy();
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
  expect(url).toContain('/app/admin/password');
  expect(JSON.parse(String(init.body))).toEqual({ oldPassword: 'old-pass-1', newPassword: 'new-pass-1' });
});

test('a stale save (40900) offers to reload instead of overwriting', async () => {
  const { ApiFailure } = await import('../../src/api/http');
  const { MemoryRouter, Route, Routes } = await import('react-router-dom');
  const { OperatorEdit } = await import('../../src/resources/setting/operators/OperatorEdit');
  const getOne = vi.fn(async () => ({
    data: { id: 2, account: 'lily', nickname: 'Lily', role: 'user', disabled: false, version: 1 },
  }));
  const provider = testDataProvider({
    getOne,
    update: async () => {
      throw new ApiFailure({ code: 40900, msg: 'stale', data: null });
    },
  } as never);
  render(
    <MemoryRouter initialEntries={['/setting/operators/edit/2']}>
      <AdminContext dataProvider={provider} i18nProvider={createI18nProvider('zh-CN')}>
        <ResourceContextProvider value="setting/operators">
          <Routes>
            <Route path="/setting/operators/edit/:id" element={<OperatorEdit />} />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
  const nickname = await screen.findByLabelText('昵称');
  fireEvent.change(nickname, { target: { value: 'Lily 2' } });
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findByText('该记录已被他人修改，请重新加载查看最新版本。')).toBeTruthy();
  const calls = getOne.mock.calls.length;
  fireEvent.click(screen.getByRole('button', { name: '重新加载' }));
  await waitFor(() => expect(getOne.mock.calls.length).toBeGreaterThan(calls));
});

test('an operator avatar is an uploaded image (upload control, no address field) headed 头像', async () => {
  const { SimpleForm } = await import('react-admin');
  const { OperatorInputs } = await import('../../src/resources/setting/operators/OperatorInputs');
  wrap(
    <SimpleForm record={{ nickname: 'Lily', avatar: '', role: 'user' }} onSubmit={() => {}}>
      <OperatorInputs />
    </SimpleForm>,
  );
  expect(await screen.findByText('头像')).toBeTruthy();
  expect(screen.getByRole('button', { name: /选择图片/ })).toBeTruthy();
  expect(screen.queryByRole('textbox', { name: /头像/ })).toBeNull();
});
