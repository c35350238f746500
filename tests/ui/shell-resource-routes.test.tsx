// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Admin, CustomRoutes, type DataProvider, EditButton, testDataProvider } from 'react-admin';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearUser } from '../../src/api/session';
import { customRouteElements, resourceElements } from '../../src/routes/build';
import type { SectionDecl } from '../../src/routes/types';

const Icon = () => null;
const Where = () => <p data-testid="where">{useLocation().pathname}</p>;
const Edit = () => <h1>EDIT SCREEN</h1>;
const Create = () => <h1>CREATE SCREEN</h1>;
const Secret = () => <h1>SECRET SCREEN</h1>;
function RowEdit() {
  return <EditButton record={{ id: 9 }} resource="things/list" />;
}
const List = () => (
  <>
    <h1>LIST SCREEN</h1>
    <RowEdit />
  </>
);

const sections: SectionDecl[] = [
  {
    path: 'things',
    locale: 'things',
    icon: Icon,
    order: 1,
    redirect: 'missing',
    screens: [
      {
        path: 'secret',
        locale: 'secret',
        permission: 'operators.settings',
        component: Secret,
      },
      {
        path: 'list',
        locale: 'list',
        resource: {
          apiPath: 'admin/things',
          list: List,
          screens: [
            { path: 'create', locale: 'c', component: Create },
            { path: 'edit/:id', locale: 'e', component: Edit },
          ],
        },
      },
    ],
  },
];

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: 20000, msg: 'ok', data }), {
    headers: { 'Content-Type': 'application/json' },
  });

function mount(path: string) {
  const dataProvider: DataProvider = testDataProvider({
    getOne: async () => ({ data: { id: 9 } }) as never,
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

let role = 'user';
beforeEach(() => {
  role = 'user';
  clearUser();
  localStorage.setItem('token', 't');
  localStorage.setItem('uid', '1');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope({ uid: 1, account: 'a', nickname: 'A', avatar: '', role })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

test("react-admin's own edit URL (/<resource>/<id>) lands on the declared edit/:id screen", async () => {
  mount('/things/list/9');
  expect(await screen.findByText('EDIT SCREEN')).toBeTruthy();
  expect(screen.getByTestId('where').textContent).toBe('/things/list/edit/9');
});

test('an EditButton in the list links to the declared URL (through the redirect)', async () => {
  mount('/things/list');
  expect(await screen.findByText('LIST SCREEN')).toBeTruthy();
  const link = await screen.findByRole('link');
  link.click();
  expect(await screen.findByText('EDIT SCREEN')).toBeTruthy();
  expect(screen.getByTestId('where').textContent).toBe('/things/list/edit/9');
});

test('create is the resource create route at the declared URL', async () => {
  mount('/things/list/create');
  expect(await screen.findByText('CREATE SCREEN')).toBeTruthy();
});

test('a section goes to its first permitted child when the declared redirect does not exist', async () => {
  mount('/things');
  expect(await screen.findByText('LIST SCREEN')).toBeTruthy();
  expect(screen.getByTestId('where').textContent).toBe('/things/list');
});

test('a screen the role may not open shows the 403 page (not not-found); the admin role opens it', async () => {
  mount('/things/secret');
  await waitFor(() => expect(screen.getByText('shell.page.403')).toBeTruthy());
  expect(screen.queryByText('shell.page.404')).toBeNull();
  expect(screen.queryByText('SECRET SCREEN')).toBeNull();
  cleanup();
  clearUser();
  role = 'admin';
  mount('/things/secret');
  expect(await screen.findByText('SECRET SCREEN')).toBeTruthy();
});

test('unknown paths show the catch-all not-found page', async () => {
  mount('/things/nope/deeper');
  expect(await screen.findByText('NOT FOUND')).toBeTruthy();
});
