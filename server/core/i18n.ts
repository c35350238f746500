import en from '../../i18n/server/en-US';
import zh from '../../i18n/server/zh-CN';

export type Locale = 'zh-CN' | 'en-US';
export type MessageKey = keyof typeof zh;
export type Params = Record<string, string | number>;

const bundles: Record<Locale, Record<MessageKey, string>> = { 'zh-CN': zh, 'en-US': en };

/** The request's locale from Accept-Language; zh-CN is the default, any English tag picks en-US. */
export function pickLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return 'zh-CN';
  for (const part of acceptLanguage.split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en-US';
  }
  return 'zh-CN';
}

export function translate(locale: Locale, key: MessageKey, params: Params = {}): string {
  const template = bundles[locale][key] ?? bundles['zh-CN'][key] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}
