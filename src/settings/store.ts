import { useSyncExternalStore } from 'react';

/** The application settings of SPEC.md §3, persisted in localStorage (`settings`; the theme also under `theme`). */
export interface AppSettings {
  theme: 'light' | 'dark';
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  tabBar: boolean;
  menuFromServer: boolean;
  menuCollapse: boolean;
  footer: boolean;
  themeColor: string;
  menuWidth: number;
  globalSettings: boolean;
  device: 'desktop' | 'mobile';
}

export const SETTINGS_KEY = 'settings';
export const THEME_KEY = 'theme';
export const COLLAPSED_MENU_WIDTH = 48;
export const MENU_INDENT = 34;
export const NAVBAR_HEIGHT = 60;
export const DRAWER_WIDTH = 300;

export const DEFAULT_SETTINGS: AppSettings = {
  theme: 'light',
  colorWeak: false,
  navbar: true,
  menu: true,
  topMenu: false,
  tabBar: false,
  menuFromServer: false,
  menuCollapse: false,
  footer: true,
  themeColor: '#165DFF',
  menuWidth: 250,
  globalSettings: false,
  device: 'desktop',
};

function read(): AppSettings {
  let stored: Partial<AppSettings> = {};
  try {
    stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') ?? {};
  } catch {
    stored = {};
  }
  const theme = localStorage.getItem(THEME_KEY);
  const merged = { ...DEFAULT_SETTINGS, ...pickKnown(stored) };
  if (theme === 'dark' || theme === 'light') merged.theme = theme;
  return merged;
}

/** Only known keys with the default's type survive a merge: a bad stored value cannot break the layout. */
function pickKnown(patch: Partial<AppSettings>): Partial<AppSettings> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch ?? {})) {
    const def = (DEFAULT_SETTINGS as unknown as Record<string, unknown>)[key];
    if (def !== undefined && typeof value === typeof def) out[key] = value;
  }
  if (out.theme !== undefined && out.theme !== 'light' && out.theme !== 'dark') delete out.theme;
  if (typeof out.menuWidth === 'number')
    out.menuWidth = Math.min(600, Math.max(COLLAPSED_MENU_WIDTH, out.menuWidth));
  return out as Partial<AppSettings>;
}

let current: AppSettings | null = null;
const listeners = new Set<() => void>();

/** A copy of all settings (SPEC.md §3: the getter returns a copy). */
export function getSettings(): AppSettings {
  current ??= read();
  return { ...current };
}

/** Merges a partial object into the settings, persists them and applies their effects on the page. */
export function updateSettings(patch: Partial<AppSettings>): AppSettings {
  current = { ...getSettings(), ...pickKnown(patch) };
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(current));
  localStorage.setItem(THEME_KEY, current.theme);
  applySettings(current);
  for (const fn of [...listeners]) fn();
  return { ...current };
}

/** Forget the in-memory copy (tests; another tab changed the storage). */
export function resetSettingsCache() {
  current = null;
}

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

let snapshot: AppSettings | null = null;
export function useSettings(): AppSettings {
  return useSyncExternalStore(subscribe, () => {
    current ??= read();
    if (snapshot !== current) snapshot = current;
    return snapshot;
  });
}

/**
 * The page-wide effects (SPEC.md §4): dark theme marks the body with `arco-theme="dark"`, colour weak inverts the
 * page by 80%, and the page's colour scheme follows the theme.
 */
export function applySettings(s: AppSettings = getSettings()) {
  const body = document.body;
  if (s.theme === 'dark') body.setAttribute('arco-theme', 'dark');
  else body.removeAttribute('arco-theme');
  document.documentElement.style.colorScheme = s.theme;
  body.style.filter = s.colorWeak ? 'invert(80%)' : '';
}
