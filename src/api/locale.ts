/**
 * The UI locale, kept in localStorage under `locale` (SPEC.md §3–4). Tiny on purpose: the HTTP client reads it
 * on the login page, so it imports nothing.
 */
export const LOCALE_KEY = 'locale';
export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
/** What an unknown stored value falls back to (SPEC.md §4). */
export const FALLBACK_LOCALE: Locale = 'en-US';

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/** The stored locale; nothing stored → zh-CN, an unknown value → en-US. */
export function getLocale(): Locale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LOCALE_KEY);
  } catch {
    stored = null;
  }
  if (stored === null || stored === '') return DEFAULT_LOCALE;
  return isLocale(stored) ? stored : FALLBACK_LOCALE;
}

/** Persist the locale; an unknown value is stored as the fallback. */
export function setLocale(locale: string): Locale {
  const value = isLocale(locale) ? locale : FALLBACK_LOCALE;
  localStorage.setItem(LOCALE_KEY, value);
  return value;
}
