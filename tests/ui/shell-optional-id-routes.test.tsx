// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import {
  Admin,
  CreateButton,
  CustomRoutes,
  type DataProvider,
  testDataProvider,
  useResourceContext,
} from 'react-admin';
import { MemoryRouter, useLocation, useParams } from 'react-router-dom';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearUser } from '../../src/api/session';
import { builtinPermissions } from '../../src/auth/catalog';
import { sections as realSections } from '../../src/resources';
import { customRouteElements, resourceElements } from '../../src/routes/build';
import { flattenRoutes, matchRoute, menuFor } from '../../src/routes/table';
import type { SectionDecl } from '../../src/routes/types';

/**
 * A screen with an optional id (SPEC.md §2 `/actress/edit/:id?`): one hidden `component` screen working on the
 * list's resource; with an id it edits, without it creates. react-admin's own create and edit links land on it.
 */
const Icon = () => null;
const Where = () => <p data-testid="where">{useLocation().pathname}</p>;
function Profile() {
  const { id } = useParams();
  return (
    <h1>
      PROFILE {id ?? 'NEW'} OF {useResourceContext()}
    </h1>
  );
}
const List = () => (
  <>
    <h1>LIST SCREEN</h1>
    <CreateButton resource="people/list" />
  </>
);

const sections: SectionDecl[] = [
  {
    path: 'people',
    locale: 'people',
    icon: Icon,
    order: 1,
    redirect: 'list',
    screens: [
      {
        path: 'list',
        locale: 'list',
        resource: {
          apiPath: 'admin/people',
          list: List,
          editPath: '/people/edit/:id',
          createPath: '/people/edit',
        },
      },
      {
        path: 'edit/:id?',
        locale: 'profile',
        hideInMenu: true,
        activeMenu: '/people/list',
        component: Profile,
        resourceName: 'people/list',
      },
    ],
  },
];

function mount(path: string) {
  const dataProvider: DataProvider = testDataProvider({
    getList: async () => ({ data: [], total: 0 }) as never,
  });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Admin
        dataProvider={dataProvider}
        layout={({ children }) => (
          <>
            <Where />
            {children}
          </>
        )}
        catchAll={() => <h1>NOT FOUND</h1>}
      >
        {resourceElements(sections)}
        <CustomRoutes>{customRouteElements(sections)}</CustomRoutes>
      </Admin>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  clearUser();
  localStorage.setItem('token', 't');
  localStorage.setItem('uid', '1');
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            code: 20000,
            msg: 'ok',
            data: { uid: 1, account: 'a', nickname: 'A', role: 'user' },
          }),
          { headers: { 'Content-Type': 'application/json' } },
        ),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

test('with an id the screen edits, without one it creates; both work on the list resource', async () => {
  mount('/people/edit/9');
  expect(await screen.findByText('PROFILE 9 OF people/list')).toBeTruthy();
  cleanup();
  mount('/people/edit');
  expect(await screen.findByText('PROFILE NEW OF people/list')).toBeTruthy();
});

test("react-admin's create and edit URLs land on the declared screen", async () => {
  mount('/people/list/create');
  expect(await screen.findByText('PROFILE NEW OF people/list')).toBeTruthy();
  expect(screen.getByTestId('where').textContent).toBe('/people/edit');
  cleanup();
  mount('/people/list/9');
  expect(await screen.findByText('PROFILE 9 OF people/list')).toBeTruthy();
  expect(screen.getByTestId('where').textContent).toBe('/people/edit/9');
});

test('the list offers a create button (the resource has a create route) that goes to the id-less screen', async () => {
  mount('/people/list');
  const link = await screen.findByRole('link', { name: /create|新建|ra\.action\.create/i });
  link.click();
  expect(await screen.findByText('PROFILE NEW OF people/list')).toBeTruthy();
  expect(screen.getByTestId('where').textContent).toBe('/people/edit');
});

test('the route table: both forms match the hidden screen, which highlights the list and stays out of the menu', () => {
  const routes = flattenRoutes(sections);
  for (const path of ['/people/edit', '/people/edit/9'])
    expect(matchRoute(routes, path)).toMatchObject({
      locale: 'profile',
      hideInMenu: true,
      activeMenu: '/people/list',
    });
  expect(matchRoute(routes, '/people/edit/9/more')).toBeUndefined();
  expect(menuFor(sections, builtinPermissions('user'))[0].items.map((i) => i.path)).toEqual(['/people/list']);
});

test('the real actress section: /actress goes to the list; /actress/edit and /actress/edit/5 are its hidden profile', () => {
  const routes = flattenRoutes(realSections);
  expect(matchRoute(routes, '/actress/edit')).toMatchObject({
    activeMenu: '/actress/list',
    hideInMenu: true,
  });
  expect(matchRoute(routes, '/actress/edit/5')).toMatchObject({
    activeMenu: '/actress/list',
    hideInMenu: true,
  });
  const actress = menuFor(realSections, builtinPermissions('user')).find((s) => s.path === '/actress');
  expect(actress?.items.map((i) => i.path)).toEqual(['/actress/list']);
});
