/**
 * The i18nProvider (ra-i18n-polyglot) over the bundles of i18n/<locale>/index.ts. The locale itself lives in
 * src/api/locale.ts so that the HTTP client can read it without this module's bundles.
 */
import type { I18nProvider, Locale as RaLocale, TranslationMessages } from 'ra-core';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import en from '../i18n/en-US';
import zh from '../i18n/zh-CN';
import { FALLBACK_LOCALE, getLocale, isLocale, type Locale, setLocale } from './api/locale';

export { DEFAULT_LOCALE, getLocale, LOCALE_KEY, LOCALES, type Locale, setLocale } from './api/locale';

export const AVAILABLE_LOCALES: RaLocale[] = [
  { locale: 'zh-CN', name: '中文' },
  { locale: 'en-US', name: 'English' },
];

const bundles: Record<Locale, TranslationMessages> = { 'zh-CN': zh, 'en-US': en };

/** The messages of a locale; an unknown locale gets the fallback's (en-US). */
export function getMessages(locale: string): TranslationMessages {
  return bundles[isLocale(locale) ? locale : FALLBACK_LOCALE];
}

/**
 * An i18nProvider starting at `initial` whose `changeLocale` also persists the choice. Missing keys are
 * allowed silently in production and shown (as the key, with a console warning) in development.
 */
export function createI18nProvider(initial: Locale = getLocale()): I18nProvider {
  const base = polyglotI18nProvider(getMessages, initial, AVAILABLE_LOCALES, {
    allowMissing: !import.meta.env.DEV,
  });
  return {
    ...base,
    changeLocale: async (locale: string, options?: unknown) => {
      const chosen = isLocale(locale) ? locale : FALLBACK_LOCALE;
      await base.changeLocale(chosen, options);
      setLocale(chosen);
    },
  };
}

export const i18nProvider: I18nProvider = createI18nProvider();
