/**
 * Names and paths of the novel section, without React: the section declaration (index.ts, in the initial bundle)
 * reads them too.
 */
/** The react-admin resources of the section (each its screen's path) and their API paths. */
export const NOVEL_RESOURCE = 'novel/review';
export const NOVEL_API = 'admin/novel/novels';
export const CHAPTER_RESOURCE = 'novel/chapters';
export const CHAPTER_API = 'admin/novel/chapters';
export const COLUMN_RESOURCE = 'novel/category';

/** Messages shared by the section's screens, and those of each resource. */
export const M = 'resources.novel';
export const R = `resources.${NOVEL_RESOURCE}`;
export const C = `resources.${CHAPTER_RESOURCE}`;

/** Where the pages are (SPEC.md §2). */
export const novelEditPath = (id?: number | string) =>
  `/novel/review/edit${id === undefined ? '' : `/${id}`}`;
export const chaptersPath = (novelId: number | string) => `/novel/chapters/${novelId}`;
export const chapterEditPath = (id: number | string) => `/novel/chapters/edit/${id}`;
export const chapterCreatePath = (novelId: number | string) => `/novel/chapters/edit?novelId=${novelId}`;
