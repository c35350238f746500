import { describe, expect, test } from 'vitest';
import { builtinPermissions } from '../../src/auth/catalog';
import {
  canAccess,
  flattenRoutes,
  guardTarget,
  matchRoute,
  menuFor,
  safeRedirect,
  sectionRedirect,
} from '../../src/routes/table';
import type { SectionDecl } from '../../src/routes/types';

const Icon = () => null;
const Screen = () => null;
const sections: SectionDecl[] = [
  {
    path: 'setting',
    locale: 's',
    icon: Icon,
    order: 90,
    redirect: 'notices',
    screens: [
      {
        path: 'operators',
        locale: 's.ops',
        permission: 'operators.settings',
        order: 2,
        resource: {
          apiPath: 'admin/operators',
          list: Screen,
          screens: [{ path: 'edit/:id', locale: 'e', component: Screen }],
        },
      },
      { path: 'base', locale: 's.base', order: 1, component: Screen },
      { path: 'secret', locale: 's.secret', hideInMenu: true, component: Screen },
    ],
  },
  {
    path: 'movie',
    locale: 'm',
    icon: Icon,
    order: 10,
    screens: [
      { path: 'review', locale: 'm.review', component: Screen },
      {
        path: 'review/edit/:id',
        locale: 'm.edit',
        hideInMenu: true,
        activeMenu: '/movie/review',
        component: Screen,
      },
    ],
  },
  {
    path: 'admins',
    locale: 'a',
    icon: Icon,
    order: 50,
    permission: 'audit.settings',
    screens: [{ path: 'only', locale: 'a.only', component: Screen }],
  },
];

describe('the permission rule (issue #52)', () => {
  test('a route that needs no permission admits any logged-in operator', () => {
    expect(canAccess(undefined, [])).toBe(true);
  });
  test("otherwise the operator's role must hold it", () => {
    expect(canAccess('operators.settings', builtinPermissions('admin'))).toBe(true);
    expect(canAccess('operators.settings', builtinPermissions('user'))).toBe(false);
    expect(canAccess('operators.settings', ['movie.read'])).toBe(false);
    expect(canAccess('operators.settings', undefined)).toBe(false);
  });
});

describe('the menu', () => {
  test('sections in order, visible screens in order, filtered by role, empty sections dropped', () => {
    const forUser = menuFor(sections, builtinPermissions('user'));
    expect(forUser.map((s) => s.path)).toEqual(['/movie', '/setting']);
    expect(forUser[1].items.map((i) => i.path)).toEqual(['/setting/base']);
    const forAdmin = menuFor(sections, builtinPermissions('admin'));
    expect(forAdmin.map((s) => s.path)).toEqual(['/movie', '/admins', '/setting']);
    expect(forAdmin[2].items.map((i) => i.path)).toEqual(['/setting/base', '/setting/operators']);
  });
  test('hidden screens never show', () => {
    const all = menuFor(sections, builtinPermissions('admin')).flatMap((s) => s.items.map((i) => i.path));
    expect(all).not.toContain('/setting/secret');
    expect(all).not.toContain('/movie/review/edit/:id');
  });
});

describe('the route table', () => {
  const routes = flattenRoutes(sections);
  test('a resource sub-screen is hidden, highlights its list and inherits its roles', () => {
    const edit = matchRoute(routes, '/setting/operators/edit/7');
    expect(edit).toMatchObject({
      hideInMenu: true,
      activeMenu: '/setting/operators',
      permission: 'operators.settings',
      locale: 'e',
    });
  });
  test('a declared activeMenu wins, and unknown paths match nothing', () => {
    expect(matchRoute(routes, '/movie/review/edit/3')?.activeMenu).toBe('/movie/review');
    expect(matchRoute(routes, '/movie/nope')).toBeUndefined();
  });
});

describe('section redirects', () => {
  test('the declared child when it exists and is allowed, else the first visible allowed child', () => {
    expect(sectionRedirect(sections[0], builtinPermissions('admin'))).toBe('/setting/operators');
    expect(sectionRedirect(sections[0], builtinPermissions('user'))).toBe('/setting/base');
    expect(sectionRedirect({ ...sections[0], redirect: 'base' }, builtinPermissions('admin'))).toBe(
      '/setting/base',
    );
    expect(sectionRedirect(sections[2], builtinPermissions('user'))).toBeNull();
  });
});

describe('the guard (SPEC.md §4)', () => {
  test('logged out: any page but login goes to login with a redirect naming it', () => {
    expect(guardTarget('/setting/operators', '?page=2', false)).toBe(
      '/login?redirect=%2Fsetting%2Foperators%3Fpage%3D2',
    );
    expect(guardTarget('/login', '', false)).toBeNull();
    expect(guardTarget('/', '', false)).toBe('/login');
  });
  test('logged in: login and / go to the review list (or the redirect target); other pages stay', () => {
    expect(guardTarget('/login', '', true)).toBe('/movie/review');
    expect(guardTarget('/', '', true)).toBe('/movie/review');
    expect(guardTarget('/login', '?redirect=%2Fsetting%2Foperators', true)).toBe('/setting/operators');
    expect(guardTarget('/setting/operators', '', true)).toBeNull();
  });
  test('only same-origin paths are redirect targets', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil',
      'javascript:alert(1)',
      '',
      null,
      '/login?x=1',
    ]) {
      expect(safeRedirect(bad)).toBe('/movie/review');
    }
    expect(safeRedirect('/setting/operators?page=2')).toBe('/setting/operators?page=2');
  });
});
