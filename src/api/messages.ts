import en from '../../i18n/en-US/http';
import zh from '../../i18n/zh-CN/http';
import { getLocale } from './locale';

/**
 * The HTTP client's own messages in the current UI locale. A tiny lookup over i18n/<locale>/http.ts so the
 * client (which runs on the login page) needs neither react-admin nor the big bundles.
 */
const bundles = { 'zh-CN': zh, 'en-US': en } as const;

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type HttpMessageKey = Leaves<typeof en>;

export function httpMessage(key: HttpMessageKey): string {
  let node: unknown = bundles[getLocale()];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : key;
}
