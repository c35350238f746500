import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPermissions } from '../../src/auth/catalog';
import { sections } from '../../src/resources';
import { discoverSections } from '../../src/routes/discover';
import { flattenRoutes, matchRoute, menuFor } from '../../src/routes/table';
import type { SectionDecl } from '../../src/routes/types';

/**
 * A section registers by being a folder (issue #50 §6): `src/resources/index.ts` finds every `<section>/index.ts`
 * with `import.meta.glob`. A throw-away section given to the same discovery is routed and in the menu, in its order,
 * without any list naming it.
 */
const root = resolve(import.meta.dirname, '../..');
const Icon = () => null;
const Screen = () => null;

const trial: SectionDecl = {
  path: 'trial',
  locale: 'resources.trial.menu.section',
  icon: Icon,
  order: 25,
  screens: [
    { path: 'list', locale: 'resources.trial.menu.list', component: Screen },
    {
      path: 'edit/:id',
      locale: 'resources.trial.menu.edit',
      hideInMenu: true,
      activeMenu: '/trial/list',
      component: Screen,
    },
  ],
};

/** The real folders' declarations, as the glob gives them, plus the throw-away one. */
const realFound = Object.fromEntries(sections.map((s, i) => [`./real-${i}/index.ts`, { default: s }]));

describe('section discovery', () => {
  it('finds every folder of src/resources that has an index.ts', () => {
    const dir = resolve(root, 'src/resources');
    const folders = readdirSync(dir).filter((name) => {
      try {
        return statSync(resolve(dir, name, 'index.ts')).isFile();
      } catch {
        return false;
      }
    });
    expect(sections.length).toBe(folders.length);
    expect(sections.map((s) => s.path)).toContain('actress');
  });

  it('lists the sections in their order', () => {
    const orders = sections.map((s) => s.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('a throw-away section is routed and in the menu, between the sections around its order', () => {
    const found = discoverSections({ ...realFound, './trial/index.ts': { default: trial } });
    const routes = flattenRoutes(found);
    expect(matchRoute(routes, '/trial/list')?.locale).toBe('resources.trial.menu.list');
    expect(matchRoute(routes, '/trial/edit/7')?.activeMenu).toBe('/trial/list');
    const menu = menuFor(found, builtinPermissions('user')).map((s) => s.path);
    expect(menu).toContain('/trial');
    // order 25: after actresses (20), before novels (30)
    expect(menu.indexOf('/trial')).toBe(menu.indexOf('/actress') + 1);
    expect(menu.indexOf('/novel')).toBe(menu.indexOf('/trial') + 1);
    // and without it, nothing of it
    expect(menuFor(discoverSections(realFound), builtinPermissions('user')).map((s) => s.path)).not.toContain(
      '/trial',
    );
  });

  it('refuses a folder without a declaration, and two sections at one path', () => {
    expect(() => discoverSections({ './broken/index.ts': {} })).toThrow('./broken/index.ts');
    expect(() =>
      discoverSections({ './a/index.ts': { default: trial }, './b/index.ts': { default: trial } }),
    ).toThrow('/trial');
  });
});
