import { useLocaleState, useTranslate } from 'react-admin';
import enServer from '../../../../i18n/server/en-US/fields';
import zhServer from '../../../../i18n/server/zh-CN/fields';

/**
 * A changed field's name in the operator's language: the label its own screen gives it
 * (`resources.<screen>.fields.<field>`), else the name the API's error messages call it by (i18n/server/<locale>/
 * fields.ts, `label.<field>`), else the key as it is. Only the audit screen needs the server's names: they come in
 * its lazy chunk, not the shell's.
 */

/** The screen whose form labels a resource's fields, by the resource an entry names (the API's tag). */
const SCREEN_OF: Record<string, string> = {
  actresses: 'actress/list',
  ads: 'ad/list',
  'ad positions': 'ad/adplacelist',
  agents: 'agents/list',
  'collect sources': 'collect/source',
  'collect runs': 'collect/task',
  comments: 'comment/list',
  guestbook: 'comment/guestbook',
  domains: 'domain/store',
  'domain pools': 'domain/pool',
  'domain settings': 'domain/setting',
  movies: 'movie/review',
  'movie columns': 'movie/category',
  'movie tags': 'movie/tags',
  'video sources': 'movie/sources',
  novels: 'novel/review',
  'novel columns': 'novel/category',
  chapters: 'novel/chapters',
  'novel chapters': 'novel/chapters',
  notices: 'setting/notices',
  'promotion apps': 'setting/promotionapp',
  operators: 'setting/operators',
  settings: 'setting/base',
  system: 'setting/base',
  'statistics settings': 'setting/statistics',
  members: 'users/list',
  'site users': 'users/list',
};

/** The same for an entry that names no resource, by its section. */
const SCREEN_OF_SECTION: Record<string, string> = {
  sys: 'setting/base',
  'statistics-settings': 'setting/statistics',
  notices: 'setting/notices',
  'promotion-apps': 'setting/promotionapp',
  operators: 'setting/operators',
};

const SERVER: Record<'zh-CN' | 'en-US', Record<string, string>> = { 'zh-CN': zhServer, 'en-US': enServer };

export interface EntryPlace {
  section: string;
  resource: string;
}

/** `(field, entry) => name`: a field of the entry's record as the operator's screens call it. */
export function useFieldName() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const server = SERVER[locale === 'en-US' ? 'en-US' : 'zh-CN'];
  return (field: string, entry: EntryPlace) => {
    const screen = SCREEN_OF[entry.resource] ?? SCREEN_OF_SECTION[entry.section];
    if (screen) {
      const own = translate(`resources.${screen}.fields.${field}`, { _: '' });
      if (own) return own;
    }
    return server[`label.${field}`] ?? field;
  };
}
