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

/** True when the bundle has this key (a field's name, say). */
export const hasMessage = (key: string): key is MessageKey => key in bundles['zh-CN'];

/** `field.enum`'s params: the allowed values, rendered per locale by `fieldMessage` (labels where known). */
export const enumParams = (values: readonly unknown[]): Params => ({
  options: JSON.stringify(values.map(String)),
});

/**
 * A field's message in `locale`. For `field.enum` the allowed values are named as the operator knows them: a value
 * with a label (`option.<field>.<value>`, the field being the path's last key) as the label with the value after
 * it ("待审核（pending）"), any other quoted ("“x”"), listed with the locale's separator.
 */
export function fieldMessage(locale: Locale, path: string, key: MessageKey, params: Params = {}): string {
  if (key !== 'field.enum' || typeof params.options !== 'string') return translate(locale, key, params);
  const field =
    path
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? path;
  let values: string[];
  try {
    values = JSON.parse(params.options);
  } catch {
    values = [];
  }
  const named = values.map((v) => {
    const label = `option.${field}.${v}`;
    return hasMessage(label)
      ? translate(locale, 'option.labelled', { label: translate(locale, label), value: v })
      : translate(locale, 'option.quoted', { value: v });
  });
  return translate(locale, key, { ...params, values: named.join(translate(locale, 'option.separator')) });
}

/**
 * A field path as an operator reads it: each key by its name (`label.<key>`), each index as "item n", joined
 * ("播放条目 · 第 1 项 · 路径"). A key without a name stays as it is (an unknown field a client misspelt).
 */
export function fieldLabel(locale: Locale, path: string): string {
  return path
    .split('.')
    .map((part) => {
      if (/^\d+$/.test(part)) return translate(locale, 'label.item', { n: Number(part) + 1 });
      const key = `label.${part}`;
      return hasMessage(key) ? translate(locale, key) : part;
    })
    .join(translate(locale, 'label.separator'));
}
