// @vitest-environment jsdom
/**
 * Roles (issue #52) over the real API in-process (PGlite): the screen in the settings menu for who manages roles,
 * the list of built-in and custom roles in both languages, the form's sections × actions grid saving a role, a
 * built-in shown read-only, and a menu trimmed to a custom role's permissions. Their accessibility is checked in a
 * browser (tests/e2e/settings.test.ts).
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'drizzle-orm';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { expect, test, vi } from 'vitest';
import { builtinPermissions, CATALOG, PERMISSION_SECTIONS } from '../../src/auth/catalog';
import { sections } from '../../src/resources';
import { ROLE_RESOURCE } from '../../src/resources/setting/names';
import { RoleCreate, RoleEdit } from '../../src/resources/setting/roles/RoleEdit';
import { RoleList } from '../../src/resources/setting/roles/RoleList';
import { apiPaths } from '../../src/routes/build';
import { menuFor } from '../../src/routes/table';
import type { TestApi } from '../api/harness';
import { okData } from '../api/movies-helpers';
import { inProcessApi } from './in-process-api';
import { mountScreen } from './mount';

vi.setConfig({ testTimeout: 60_000 });

let api: TestApi;
let token: string;

inProcessApi((started, admin) => {
  api = started;
  token = admin;
});

const mount = (path: string, node: ReactNode, locale: 'zh-CN' | 'en-US' = 'zh-CN') =>
  mountScreen(node, { url: path, path: '/setting/roles/*', resource: ROLE_RESOURCE, locale });

const menuItems = (permissions: readonly string[]) =>
  Object.fromEntries(menuFor(sections, permissions).map((s) => [s.path, s.items.map((i) => i.path)]));

test('the screen is in the settings menu for who holds roles.settings, at /setting/roles', () => {
  expect(menuItems(builtinPermissions('admin'))['/setting']).toContain('/setting/roles');
  expect(menuItems(builtinPermissions('user'))['/setting']).not.toContain('/setting/roles');
  expect(menuItems(['roles.settings'])['/setting']).toContain('/setting/roles');
  expect(apiPaths(sections)).toMatchObject({ [ROLE_RESOURCE]: 'admin/setting/roles' });
});

test("a custom role's menu holds only what its permissions open", () => {
  // A reviewer of movies: the movie screens (columns, tags and sources read-only: changing them is movie.settings),
  // no other section but the settings' base page every operator reads.
  const reviewer = menuItems(['movie.read', 'movie.review']);
  expect(Object.keys(reviewer)).toEqual(['/movie', '/setting']);
  expect(reviewer['/movie']).toEqual([
    '/movie/review',
    '/movie/onlinectx',
    '/movie/category',
    '/movie/tags',
    '/movie/sources',
  ]);
  expect(menuItems(['ad.read'])['/movie']).toBeUndefined();
  expect(reviewer['/setting']).toEqual(['/setting/base']);
  // An ad manager: ads, nothing of the members.
  const ads = menuItems(['ad.read', 'ad.edit']);
  expect(Object.keys(ads)).toContain('/ad');
  expect(Object.keys(ads)).not.toContain('/users');
  // The built-in user's menu is what it always was: every section but the admin-only screens.
  const user = menuItems(builtinPermissions('user'));
  expect(Object.keys(user)).toEqual(expect.arrayContaining(['/movie', '/users', '/ad', '/domain']));
  expect(user['/setting']).not.toContain('/setting/operators');
});

test('the grid offers every declared section and action, nothing else', () => {
  expect(CATALOG.all.length).toBe(PERMISSION_SECTIONS.reduce((n, s) => n + s.actions.length, 0));
  expect(CATALOG.all).toContain('movie.review');
  expect(CATALOG.all).not.toContain('ad.review');
});

test('the list shows the built-ins and the custom roles, in zh-CN and en-US', async () => {
  await okData(
    api.call('POST', '/app/admin/setting/roles', {
      token,
      body: { name: 'ad-manager', permissions: ['ad.read', 'ad.edit'] },
    }),
  );
  mount('/setting/roles', <RoleList />);
  expect(await screen.findByText('ad-manager')).toBeTruthy();
  expect(screen.getByText('管理员')).toBeTruthy();
  expect(screen.getByText('普通用户')).toBeTruthy();
  expect(screen.getAllByText('内置').length).toBe(2);
  expect(screen.getByText('2 项权限')).toBeTruthy();
  cleanup();
  mount('/setting/roles', <RoleList />, 'en-US');
  expect(await screen.findByText('ad-manager')).toBeTruthy();
  expect(screen.getByText('Admin')).toBeTruthy();
  expect(screen.getAllByText('Built-in').length).toBe(2);
  expect(screen.getByText('2 permissions')).toBeTruthy();
});

test('creating a role: a name and checkboxes of the grid; the whole row takes a section', async () => {
  // Label queries, not role ones: the grid holds about a hundred checkboxes, and jsdom names every element for a role
  // query. The screen's accessibility is checked in a browser (tests/e2e/settings.test.ts, the roles screens).
  mount('/setting/roles/create', <RoleCreate />, 'en-US');
  fireEvent.change(await screen.findByLabelText('Name *'), { target: { value: 'reviewer' } });
  fireEvent.click(screen.getByLabelText('Movies · Review'));
  fireEvent.click(screen.getByLabelText('Movies · Read'));
  fireEvent.click(screen.getByLabelText('All of Comments'));
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(async () => {
    const [row] = await api.query<{ permissions: string[] }>(
      sql`select permissions from roles where name = 'reviewer'`,
    );
    expect([...(row?.permissions ?? [])].sort()).toEqual(
      [
        'comment.read',
        'comment.edit',
        'comment.review',
        'comment.batch',
        'comment.settings',
        'movie.read',
        'movie.review',
      ].sort(),
    );
  });
});

test('editing a custom role in zh-CN; a built-in is shown read-only', async () => {
  const role = await okData(
    api.call('POST', '/app/admin/setting/roles', {
      token,
      body: { name: 'editor', permissions: ['movie.read'] },
    }),
  );
  mount(
    `/setting/roles/edit/${role.id}`,
    <Routes>
      <Route path="edit/:id" element={<RoleEdit />} />
    </Routes>,
  );
  const read = await screen.findByRole('checkbox', { name: '视频 · 查看' });
  expect((read as HTMLInputElement).checked).toBe(true);
  fireEvent.click(screen.getByRole('checkbox', { name: '视频 · 编辑' }));
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  await waitFor(async () => {
    const saved = await okData(api.call('GET', `/app/admin/setting/roles/${role.id}`, { token }));
    expect(saved.permissions).toEqual(['movie.read', 'movie.edit']);
  });
  cleanup();
  const [admin] = await api.query<{ id: number }>(sql`select id from roles where name = 'admin'`);
  mount(
    `/setting/roles/edit/${admin.id}`,
    <Routes>
      <Route path="edit/:id" element={<RoleEdit />} />
    </Routes>,
  );
  expect(await screen.findByTestId('builtin-role')).toBeTruthy();
  const grid = screen.getByRole('table', { name: '按版块和操作划分的权限' });
  const boxes = within(grid).getAllByRole('checkbox') as HTMLInputElement[];
  expect(boxes.every((b) => b.disabled)).toBe(true);
  expect(boxes.filter((b) => b.checked).length).toBeGreaterThanOrEqual(CATALOG.all.length);
  expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
});
