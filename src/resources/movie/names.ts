/**
 * Names of the movie section, without React (the section declaration, index.ts, is in the initial bundle): each
 * resource (its screen's path), its API path and its message prefix, the section's own messages (`SECTION_MSG`,
 * which also holds the review workflow's), and the review workflow.
 */
import { REVIEW_VIEWS, type ReviewStatus } from '../../../common/review';
import { ACTIONS_BY_STATUS, type ReviewDecl } from '../../components/review';
import type { ReviewQueue } from '../../components/reviewQueue';

export type MovieView = 'review' | 'online';
export type MovieStatus = ReviewStatus;

/** Messages shared by the section's screens (statuses, filters, review actions) and its menu labels. */
export const SECTION_MSG = 'resources.movie';

/** The resource (= screen path) of each view; both are `admin/movie/movies` on the API with `view` fixed. */
export const MOVIE_API = 'admin/movie/movies';
export const MOVIE_RESOURCE: Record<MovieView, string> = {
  review: 'movie/review',
  online: 'movie/onlinectx',
};
export const MOVIE_MSG: Record<MovieView, string> = {
  review: `resources.${MOVIE_RESOURCE.review}`,
  online: `resources.${MOVIE_RESOURCE.online}`,
};
export const COLUMN_RESOURCE = 'movie/category';
export const COLUMN_API = 'admin/movie/columns';
export const COLUMN_MSG = `resources.${COLUMN_RESOURCE}`;
export const TAG_RESOURCE = 'movie/tags';
export const TAG_API = 'admin/movie/tags';
export const TAG_MSG = `resources.${TAG_RESOURCE}`;
export const SOURCE_RESOURCE = 'movie/sources';
export const SOURCE_API = 'admin/movie/sources';
export const SOURCE_MSG = `resources.${SOURCE_RESOURCE}`;

export const STATUSES: Record<MovieView, readonly MovieStatus[]> = REVIEW_VIEWS;
/** Where a movie is edited, by its status: the review pages for pending/rejected, the online pages otherwise. */
export const editPathOf = (status: MovieStatus, id: number | string) =>
  `/${MOVIE_RESOURCE[status === 'pending' || status === 'rejected' ? 'review' : 'online']}/edit/${id}`;

/** The review workflow: the transitions the API allows from each status (common/review.ts). */
export const MOVIE_REVIEW: ReviewDecl<MovieStatus> = {
  messages: SECTION_MSG,
  statusMessages: `${SECTION_MSG}.status`,
  transitions: ACTIONS_BY_STATUS,
  reasonRequired: ['reject'],
  backToList: ['approve', 'reject'],
  warn: ['reject', 'offline'],
};

/** Rows per page of the review and online lists (the login prefetches the first page of the review list so). */
export const MOVIE_PAGE_SIZE = 20;

/** Each view's list as a review queue: its fixed filter and its default sort (the edit page's "next"). */
export const MOVIE_QUEUE: Record<MovieView, ReviewQueue> = {
  review: { filter: { view: 'review' }, sort: { field: 'createdAt', order: 'DESC' } },
  online: { filter: { view: 'online' }, sort: { field: 'publishedAt', order: 'DESC' } },
};
