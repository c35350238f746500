/**
 * Names of the comment section (SPEC.md §2 /comment), without React: the section declaration reads them too.
 * Comments and guestbook entries share the review workflow of common/review.ts; the screens call `online` shown
 * and `offline` hidden.
 */
import type { ReviewStatus } from '../../../common/review';
import { ACTIONS_BY_STATUS, type ReviewDecl } from '../../components/review';

export const SECTION_MSG = 'resources.comment';

export const COMMENT_RESOURCE = 'comment/list';
export const COMMENT_API = 'admin/comment/comments';
export const COMMENT_MSG = `resources.${COMMENT_RESOURCE}`;

export const GUESTBOOK_RESOURCE = 'comment/guestbook';
export const GUESTBOOK_API = 'admin/comment/guestbook';
export const GUESTBOOK_MSG = `resources.${GUESTBOOK_RESOURCE}`;

/** The filter settings screen (not a react-admin resource): its API and messages. */
export const FILTER_API = '/admin/comment/filters';
export const FILTER_MSG = `${SECTION_MSG}.filter`;
export const VIEW_MSG = `${SECTION_MSG}.view`;

/** Every comment of one member. */
export const userCommentsPath = (userId: number | string) => `/comment/view?user=${userId}`;

const withIds = (list: string, id: number | string) =>
  `${list}?filter=${encodeURIComponent(JSON.stringify({ ids: String(id) }))}`;
/** One comment in the comments list (filtered to it). */
export const commentPath = (id: number | string) => withIds('/comment/list', id);
/** One guestbook entry in the guestbook list (filtered to it). */
export const guestbookEntryPath = (id: number | string) => withIds('/comment/guestbook', id);

const review = (resource: string, messages: string): ReviewDecl<ReviewStatus> => ({
  resource,
  messages,
  statusMessages: `${SECTION_MSG}.status`,
  transitions: ACTIONS_BY_STATUS,
  reasonRequired: ['reject'],
  backToList: [],
  warn: ['reject', 'offline'],
});
export const COMMENT_REVIEW = review(COMMENT_RESOURCE, COMMENT_MSG);
export const GUESTBOOK_REVIEW = review(GUESTBOOK_RESOURCE, GUESTBOOK_MSG);
