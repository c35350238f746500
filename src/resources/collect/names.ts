/**
 * Names of the collection section (issue #49), without React: the section declaration (index.ts, in the initial
 * bundle) reads them too.
 */

/** Messages shared by the section's screens (menu labels, formats, run kinds and statuses). */
export const SECTION_MSG = 'resources.collect';

/** The resource sites we collect from (`/collect/source`; API /app/admin/collect/sources). */
export const SOURCE_RESOURCE = 'collect/source';
export const SOURCE_API = 'admin/collect/sources';
export const SOURCE_MSG = `resources.${SOURCE_RESOURCE}`;
/** The runs (`/collect/history`; API /app/admin/collect/runs). */
export const RUN_RESOURCE = 'collect/history';
export const RUN_API = 'admin/collect/runs';
export const RUN_MSG = `resources.${RUN_RESOURCE}`;
export const TASK_MSG = 'resources.collect/task';

export const COLLECT_FORMATS = ['json', 'xml'] as const;
/** What a site serves: videos (provide/vod), articles as novels (provide/art), performers as actresses (provide/actor). */
export const SOURCE_KINDS = ['vod', 'art', 'actor'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** Covers keep the site's URL (`remote`) or are fetched into our image store (`local`). */
export const IMAGE_MODES = ['remote', 'local'] as const;
export const RUN_KINDS = ['hours', 'pages', 'keyword', 'ids'] as const;

export const sourceEditPath = (id?: number | string) =>
  id ? `/collect/sourceEdit/${id}` : '/collect/sourceEdit';
export const testApi = (id: number | string) => `${SOURCE_API}/${id}/test`;
export const runApi = (id: number | string) => `${RUN_API}/${id}`;
export const cancelApi = (id: number | string) => `${RUN_API}/${id}/cancel`;
export const BIND_MSG = 'resources.collect/bind';
export const bindingsApi = (id: number | string) => `${SOURCE_API}/${id}/bindings`;
