import type { ComponentType } from 'react';
import type { Permission } from '../../common/permissions';

/** A menu icon (an MUI icon component). */
export type Icon = ComponentType<{
  fontSize?: 'small' | 'medium' | 'large' | 'inherit';
  'aria-hidden'?: boolean;
}>;

/**
 * The permission a route needs (`<section>.<action>`, as common/permissions/<section>.ts declares it):
 * absent = any logged-in operator; otherwise the operator's role must hold it.
 */
export type Need = Permission;

/**
 * A hidden child of a resource screen, mounted inside the resource and highlighting its list in the menu.
 * By convention `create`, `edit/:id` and `show/:id` are the resource's create, edit and show screens: react-admin's
 * own links and redirects (CreateButton, EditButton, rowClick="edit", redirect after save) land on them.
 */
export interface SubScreen {
  /** Relative to the resource screen: 'create', 'edit/:id', 'show/:id', 'chapters/:id'. */
  path: string;
  locale: string;
  /** A component, or `lazy(() => import('./ThingEdit'))` to load it with its route (a progress bar shows meanwhile). */
  component: ComponentType;
  permission?: Need;
  /** The permission saving on it needs, as the API's guard says (`movie.settings`): others see it read-only. */
  editPermission?: Need;
}

/** One screen of a section: a route, a menu entry (unless hidden), a page title. */
export interface ScreenDecl {
  /** Relative to the section: 'review', 'review/edit/:id'. */
  path: string;
  /** i18n key of the menu entry and the page title. */
  locale: string;
  icon?: Icon;
  permission?: Need;
  /** The permission saving on it needs, as the API's guard says (`ad.edit`): others see it read-only. */
  editPermission?: Need;
  hideInMenu?: boolean;
  /** Full path of the menu entry to highlight while this screen shows (hidden screens). */
  activeMenu?: string;
  order?: number;
  /** A react-admin resource whose list is this screen; its name is the screen's full path without the slash. */
  resource?: {
    apiPath: string;
    list: ComponentType;
    recordRepresentation?: string | ((record: any) => string);
    screens?: SubScreen[];
    /** Where react-admin's edit links go when the edit screen is not the `edit/:id` child (absolute, with `:id`). */
    editPath?: string;
    /** Where react-admin's create links go when the create screen is not the `create` child (absolute), e.g. the
     *  id-less `/actress/edit` of an `edit/:id?` screen. */
    createPath?: string;
  };
  /** A screen that is not a resource list (a component or a `lazy(...)` one). */
  component?: ComponentType;
  /** For a `component` screen working on a resource declared elsewhere (e.g. /actress/edit/:id? beside
   *  /actress/list): the resource's name, given to it as react-admin's ResourceContext. */
  resourceName?: string;
  /** The API path of `resourceName` when no list screen declares that resource: e.g. `/novel/chapters/:id` lists
   *  the chapters of one novel, and no screen is the chapters' own list. */
  apiPath?: string;
}

export interface SectionDecl {
  path: string;
  locale: string;
  icon: Icon;
  order: number;
  /** What opening its screens needs unless a screen says otherwise (usually the section's `read`). */
  permission?: Need;
  /** The child a bare `/<section>` goes to; falls back to the first permitted child. */
  redirect?: string;
  hideChildrenInMenu?: boolean;
  screens: ScreenDecl[];
  /** More react-admin resources its screens read (resource name → API path), e.g. a report shown in a tab. */
  resources?: Record<string, string>;
}

/** What every route carries once the table is flattened (SPEC.md §2 route metadata). */
export interface RouteMeta {
  path: string;
  locale: string;
  sectionLocale: string;
  sectionPath: string;
  permission?: Need;
  requiresAuth: true;
  hideInMenu: boolean;
  activeMenu: string;
  icon?: Icon;
}
