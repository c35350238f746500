/**
 * Names and paths of the novel section, without React: the section declaration (index.ts, in the initial bundle)
 * reads them too.
 */
import type { ReviewStatus } from '../../../common/review';
import { ACTIONS_BY_STATUS, type ReviewDecl } from '../../components/review';
import type { ReviewQueue } from '../../components/reviewQueue';

export type NovelStatus = ReviewStatus;

/** The react-admin resources of the section (each its screen's path) and their API paths. */
export const NOVEL_RESOURCE = 'novel/review';
export const NOVEL_API = 'admin/novel/novels';
export const CHAPTER_RESOURCE = 'novel/chapters';
export const CHAPTER_API = 'admin/novel/chapters';
export const COLUMN_RESOURCE = 'novel/category';
export const COLUMN_MSG = `resources.${COLUMN_RESOURCE}`;

/** Messages shared by the section's screens (statuses, menu labels), and those of each resource. */
export const SECTION_MSG = 'resources.novel';
export const NOVEL_MSG = `resources.${NOVEL_RESOURCE}`;
export const CHAPTER_MSG = `resources.${CHAPTER_RESOURCE}`;

/** Where the pages are (SPEC.md §2). */
export const novelEditPath = (id?: number | string) =>
  `/novel/review/edit${id === undefined ? '' : `/${id}`}`;
export const chaptersPath = (novelId: number | string) => `/novel/chapters/${novelId}`;
export const chapterEditPath = (id: number | string) => `/novel/chapters/edit/${id}`;
export const chapterCreatePath = (novelId: number | string) => `/novel/chapters/edit?novelId=${novelId}`;

/** The review workflow: the transitions the API allows from each status (common/review.ts). */
export const NOVEL_REVIEW: ReviewDecl<NovelStatus> = {
  resource: NOVEL_RESOURCE,
  messages: NOVEL_MSG,
  statusMessages: `${SECTION_MSG}.status`,
  transitions: ACTIONS_BY_STATUS,
  reasonRequired: ['reject'],
  backToList: ['approve', 'reject'],
  warn: ['reject', 'offline'],
};

/** The novel list as a review queue (the edit page's "next"): no fixed filter, newest first. */
export const NOVEL_QUEUE: ReviewQueue = { sort: { field: 'createdAt', order: 'DESC' } };
