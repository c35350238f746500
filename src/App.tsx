import { useMemo } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { BrowserRouter, matchPath } from 'react-router-dom';
import { authProvider } from './api/authProvider';
import { createDataProvider } from './api/dataProvider';
import { prefetchGets } from './api/http';
import { MAX_PAGE } from './api/pages';
import { queryClient } from './api/queryClient';
import { i18nProvider } from './i18n';
import { Layout } from './layout/Layout';
import { makeTheme } from './layout/theme';
import { LoginPage } from './login/LoginPage';
import { NotFound } from './pages/ExceptionPage';
import { sections } from './resources';
import { COLUMN_RESOURCE, MOVIE_PAGE_SIZE, MOVIE_QUEUE, MOVIE_RESOURCE } from './resources/movie/names';
import { apiPaths, customRouteElements, resourceElements } from './routes/build';
import { HOME_PATH } from './routes/guard';
import { preloadScreen } from './routes/lazy';
import { useSettings } from './settings/store';

const dataProvider = createDataProvider(apiPaths(sections));
// Built once: screens keep their identity when the admin re-renders (theme, locale), so no form state is lost.
const resources = resourceElements(sections);
const customRoutes = customRouteElements(sections);

/**
 * Right after the login, when it leads home (the review list): asks the list's first page and the columns its
 * filter shows, as the list will (the same data provider calls), while the admin renders; the list then gets
 * these answers instead of asking (src/api/http.ts prefetchGets).
 */
export function prefetchHome(target: string) {
  if (target !== HOME_PATH) return;
  prefetchGets(() =>
    Promise.all([
      dataProvider.getList(MOVIE_RESOURCE.review, {
        pagination: { page: 1, perPage: MOVIE_PAGE_SIZE },
        sort: MOVIE_QUEUE.review.sort,
        filter: MOVIE_QUEUE.review.filter,
      }),
      dataProvider.getList(COLUMN_RESOURCE, {
        // the first page of useAllColumns' walk (src/components/columnTreeData.ts)
        pagination: { page: 1, perPage: MAX_PAGE },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      }),
    ]),
  );
}

/** Loads the home screen's code ahead (the login page asks while the operator types): it then renders at once. */
export function preloadHome() {
  return preloadAt(HOME_PATH);
}

/**
 * Loads the code of the screen at `pathname` ahead (a direct open: a bookmark, a reload, a link from elsewhere), while
 * react-admin checks the session: else the screen's chunk is asked only once the session is known, one wait after
 * the other.
 */
export function preloadAt(pathname: string) {
  const [section, first, ...rest] = pathname.split('/').filter(Boolean);
  const decl = sections.find((s) => s.path === section);
  if (!decl || !first) return;
  const under = `/${[first, ...rest].join('/')}`;
  for (const sc of decl.screens) {
    if (sc.resource && sc.path === first) {
      if (rest.length === 0) return preloadScreen(sc.resource.list);
      const sub = sc.resource.screens?.find((x) => matchPath(`/${x.path}`, `/${rest.join('/')}`));
      return preloadScreen(sub?.component);
    }
    if (sc.component && matchPath(`/${sc.path}`, under)) return preloadScreen(sc.component);
  }
}

/** After a logout react-admin shows this at /login: the same light login page, then a fresh start of the admin. */
const AdminLogin = () => <LoginPage onSuccess={(target) => window.location.assign(target)} />;

/** The admin: react-admin over the section declarations (src/resources), lazily loaded after login. */
export default function App() {
  const settings = useSettings();
  const theme = useMemo(
    () => makeTheme(settings.theme, settings.themeColor, settings.menuWidth),
    [settings.theme, settings.themeColor, settings.menuWidth],
  );
  // A browser router: the URLs are SPEC.md's paths (/movie/review), not react-admin's default #/ hashes.
  return (
    <BrowserRouter>
      <Admin
        dataProvider={dataProvider}
        queryClient={queryClient}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={Layout}
        loginPage={AdminLogin}
        theme={theme}
        darkTheme={null}
        catchAll={NotFound}
        requireAuth
        disableTelemetry
        title="掌柜"
      >
        {resources}
        <CustomRoutes>{customRoutes}</CustomRoutes>
      </Admin>
    </BrowserRouter>
  );
}
