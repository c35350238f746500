/**
 * A screen mounted for a UI test as the admin mounts it, its data provider on the sections' API paths (`mountScreen`,
 * or `mountAdmin` for the admin's own routes); over the API in process (in-process-api.ts) or a stubbed fetch.
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Admin, AdminContext, CustomRoutes, memoryStore, ResourceContextProvider } from 'react-admin';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createDataProvider } from '../../src/api/dataProvider';
import { createI18nProvider } from '../../src/i18n';
import { sections } from '../../src/resources';
import { apiPaths, customRouteElements, resourceElements } from '../../src/routes/build';

/** The sections' data provider, as the admin makes it (App.tsx). */
const dataProvider = () => createDataProvider(apiPaths(sections));

/**
 * `node` at `url` in react-admin's context (a fresh store, the interface in `locale`): under a route `path` when the
 * screen reads its parameters, in the context of `resource` when it is a resource's screen.
 */
export function mountScreen(
  node: ReactNode,
  {
    url = '/',
    path,
    resource,
    locale = 'zh-CN',
  }: { url?: string; path?: string; resource?: string; locale?: 'zh-CN' | 'en-US' } = {},
) {
  const screen = resource ? <ResourceContextProvider value={resource}>{node}</ResourceContextProvider> : node;
  return render(
    <MemoryRouter initialEntries={[url]}>
      <AdminContext
        dataProvider={dataProvider()}
        i18nProvider={createI18nProvider(locale)}
        store={memoryStore()}
      >
        {path ? (
          <Routes>
            <Route path={path} element={screen} />
          </Routes>
        ) : (
          screen
        )}
      </AdminContext>
    </MemoryRouter>,
  );
}

/** The admin's own routes (every section's screens and guards) at `url`, without its layout (menu, top bar). */
export function mountAdmin(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Admin
        dataProvider={dataProvider()}
        i18nProvider={createI18nProvider('zh-CN')}
        store={memoryStore()}
        layout={({ children }) => <>{children}</>}
      >
        {resourceElements(sections)}
        <CustomRoutes>{customRouteElements(sections)}</CustomRoutes>
      </Admin>
    </MemoryRouter>,
  );
}
