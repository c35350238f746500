import { useEffect, useMemo } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useUser } from '../api/session';
import { sections } from '../resources';
import { canAccess } from '../routes/guard';
import { flattenRoutes, matchRoute } from '../routes/table';

const routes = flattenRoutes(sections);

/** The route the location shows (its metadata) and, for a hidden screen, the menu entry it belongs to. */
export function usePageMeta() {
  const { pathname } = useLocation();
  const meta = useMemo(() => matchRoute(routes, pathname), [pathname]);
  const parent = useMemo(
    () => (meta && meta.activeMenu !== meta.path ? matchRoute(routes, meta.activeMenu) : undefined),
    [meta],
  );
  return { meta, parent };
}

/** Keeps the page title (from the route's locale key) and <html lang> in step with the route and the locale. */
export function usePageTitle() {
  const { meta } = usePageMeta();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const permissions = useUser()?.permissions;
  // a route refused to this operator shows the 403 page (Guarded): its title says so, not the refused page's name
  const refused = !!meta && !!permissions && !canAccess(meta.permission, permissions);
  useEffect(() => {
    document.documentElement.lang = locale;
    const brand = translate('shell.brand');
    const page = !meta
      ? translate('shell.page.title404')
      : refused
        ? translate('shell.page.title403')
        : translate(meta.locale, { account: '', smart_count: 2 });
    document.title = `${page} - ${brand}`;
  }, [meta, refused, locale, translate]);
}
