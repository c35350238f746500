// @vitest-environment jsdom
import { beforeEach, expect, test } from 'vitest';
import { hasPermission } from '../../src/auth/permission';
import { DEFAULT_SETTINGS, getSettings, resetSettingsCache, updateSettings } from '../../src/settings/store';

beforeEach(() => {
  localStorage.clear();
  resetSettingsCache();
  document.body.removeAttribute('arco-theme');
  document.body.style.filter = '';
});

test('defaults of SPEC.md §3', () => {
  expect(getSettings()).toMatchObject({
    theme: 'light',
    colorWeak: false,
    navbar: true,
    menu: true,
    footer: true,
    menuCollapse: false,
    menuWidth: 250,
    globalSettings: false,
  });
});

test('the getter returns a copy: changing it changes nothing', () => {
  const copy = getSettings();
  copy.menuWidth = 999;
  expect(getSettings().menuWidth).toBe(250);
});

test('update merges a partial object and persists it (theme also under its own key)', () => {
  updateSettings({ theme: 'dark', menuWidth: 300 });
  expect(getSettings()).toMatchObject({ ...DEFAULT_SETTINGS, theme: 'dark', menuWidth: 300 });
  expect(JSON.parse(localStorage.getItem('settings')!)).toMatchObject({ theme: 'dark', menuWidth: 300 });
  expect(localStorage.getItem('theme')).toBe('dark');
  resetSettingsCache();
  expect(getSettings().theme).toBe('dark');
});

test('stored values of the wrong type are ignored', () => {
  localStorage.setItem('settings', JSON.stringify({ menuWidth: 'wide', theme: 'purple', footer: false }));
  resetSettingsCache();
  expect(getSettings()).toMatchObject({ menuWidth: 250, theme: 'light', footer: false });
});

test('dark theme marks the body; light removes the mark', () => {
  updateSettings({ theme: 'dark' });
  expect(document.body.getAttribute('arco-theme')).toBe('dark');
  updateSettings({ theme: 'light' });
  expect(document.body.hasAttribute('arco-theme')).toBe(false);
});

test('colour weak inverts the page by 80%, and off removes it', () => {
  updateSettings({ colorWeak: true });
  expect(document.body.style.filter).toBe('invert(80%)');
  updateSettings({ colorWeak: false });
  expect(document.body.style.filter).toBe('');
});

test('the permission helper: a held permission, a missing one, and an error for anything but a permission', () => {
  expect(hasPermission('movie.edit', ['movie.read', 'movie.edit'])).toBe(true);
  expect(hasPermission('movie.settings', ['movie.read', 'movie.edit'])).toBe(false);
  expect(hasPermission('movie.read', undefined)).toBe(false);
  expect(() => hasPermission(['admin'], ['movie.read'])).toThrow(/need a permission/);
});
