import { matchPath } from 'react-router';
import { canAccess } from './guard';
import type { RouteMeta, SectionDecl } from './types';

export { canAccess, guardTarget, HOME_PATH, LOGIN_PATH, safeRedirect } from './guard';

const byOrder = <T extends { order?: number }>(a: T, b: T) => (a.order ?? 0) - (b.order ?? 0);

/** Every route of the table with its metadata, sub-screens included (hidden, highlighting their list). */
export function flattenRoutes(sections: readonly SectionDecl[]): RouteMeta[] {
  const out: RouteMeta[] = [];
  for (const section of sections) {
    for (const screen of section.screens) {
      const path = `/${section.path}/${screen.path}`;
      const permission = screen.permission ?? section.permission;
      const base = {
        sectionLocale: section.locale,
        sectionPath: `/${section.path}`,
        requiresAuth: true as const,
      };
      out.push({
        ...base,
        path,
        locale: screen.locale,
        permission,
        hideInMenu: !!screen.hideInMenu || !!section.hideChildrenInMenu,
        activeMenu: screen.activeMenu ?? path,
        icon: screen.icon,
      });
      for (const sub of screen.resource?.screens ?? []) {
        out.push({
          ...base,
          path: `${path}/${sub.path}`,
          locale: sub.locale,
          permission: sub.permission ?? permission,
          hideInMenu: true,
          activeMenu: path,
        });
      }
    }
  }
  return out;
}

export interface MenuSection {
  path: string;
  locale: string;
  icon: SectionDecl['icon'];
  items: { path: string; locale: string; icon?: SectionDecl['icon'] }[];
}

/** The menu: sections in order, each with its visible screens the operator may open; empty sections are left out. */
export function menuFor(
  sections: readonly SectionDecl[],
  permissions: readonly string[] | null | undefined,
): MenuSection[] {
  return [...sections]
    .sort(byOrder)
    .map((s) => ({
      path: `/${s.path}`,
      locale: s.locale,
      icon: s.icon,
      items: s.hideChildrenInMenu
        ? []
        : [...s.screens]
            .sort(byOrder)
            .filter((sc) => !sc.hideInMenu && canAccess(sc.permission ?? s.permission, permissions))
            .map((sc) => ({ path: `/${s.path}/${sc.path}`, locale: sc.locale, icon: sc.icon })),
    }))
    .filter((s) => s.items.length > 0);
}

/** The route a path shows, or undefined (not found). */
export function matchRoute(routes: readonly RouteMeta[], pathname: string): RouteMeta | undefined {
  return routes.find((r) => matchPath({ path: r.path, end: true }, pathname));
}

/** Where a bare `/<section>` goes: its declared redirect child when the operator may open it, else the first. */
export function sectionRedirect(
  section: SectionDecl,
  permissions: readonly string[] | null | undefined,
): string | null {
  const allowed = section.screens.filter(
    (sc) => canAccess(sc.permission ?? section.permission, permissions) && !sc.path.includes(':'),
  );
  const target = allowed.find((sc) => sc.path === section.redirect) ?? allowed.find((sc) => !sc.hideInMenu);
  return target ? `/${section.path}/${target.path}` : null;
}
