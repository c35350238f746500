import { expect, test } from 'vitest';
import { layoutFlags } from '../../src/settings/layout';
import { DEFAULT_SETTINGS } from '../../src/settings/store';

const flags = (patch: Partial<typeof DEFAULT_SETTINGS>, narrow = false) =>
  layoutFlags({ ...DEFAULT_SETTINGS, ...patch }, narrow);

test('by default navbar, menu and footer show, the menu is open and there is no floating button', () => {
  expect(flags({})).toMatchObject({
    navbar: true,
    menu: true,
    footer: true,
    menuOpen: true,
    floatingSettings: false,
  });
});

test('the navbar, menu and footer switches hide those parts; without the navbar a floating button shows', () => {
  expect(flags({ navbar: false, menu: false, footer: false })).toMatchObject({
    navbar: false,
    menu: false,
    footer: false,
    floatingSettings: true,
  });
});

test('menuCollapse, a mobile device or a screen below xl collapse the menu; topMenu expands it again', () => {
  expect(flags({ menuCollapse: true }).menuOpen).toBe(false);
  expect(flags({ device: 'mobile' }).menuOpen).toBe(false);
  expect(flags({}, true).menuOpen).toBe(false);
  expect(flags({ menuCollapse: true, topMenu: true }).menuOpen).toBe(true);
});
