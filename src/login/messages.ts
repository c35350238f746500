import enLogin from '../../i18n/en-US/login';
import zhLogin from '../../i18n/zh-CN/login';
import type { Locale } from '../api/locale';

export type LoginKey = keyof typeof enLogin;
const bundles: Record<Locale, Record<LoginKey, string>> = { 'zh-CN': zhLogin, 'en-US': enLogin };

/** The login page's own tiny translate: its two small bundles only, `{name}` placeholders. */
export function loginT(locale: Locale, key: LoginKey, params: Record<string, string> = {}): string {
  return bundles[locale][key].replace(/\{(\w+)\}/g, (m, name: string) => params[name] ?? m);
}
