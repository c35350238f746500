/**
 * A review workflow as a section declares it (the SPA half of the server's review kit): which actions each status
 * allows, which need a reason, which take the item out of the page's list. `ReviewToolbar` (one item, on its edit
 * page) and `ReviewBulkButtons` (the selected rows of a list) both read it. Without React: a section's `names.ts`
 * may hold it.
 *
 * The messages live under `messages` (react-admin's `resources.<resource>`):
 * - `action.<action>`: the button and the dialog's title; `action.confirmOne.<action>`: the question for one item
 *   (gets `%{title}`); `action.confirm<Action>`: the question for a batch (gets `%{count}`);
 * - `action.reason`, `action.reasonHint`: the reason field; `action.delete`, `action.confirmDelete`: batch delete;
 * - `notifications.<action>`: done, for one item; `notifications.batchDone`: done, for a batch (gets `%{count}`).
 */
import { actionsFrom, REVIEW_STATUSES, type ReviewAction, type ReviewStatus } from '../../common/review';

/** The actions the API allows from each status of the shared workflow (common/review.ts): movies, novels. */
export const ACTIONS_BY_STATUS = Object.fromEntries(
  REVIEW_STATUSES.map((s) => [s, actionsFrom(s)]),
) as Record<ReviewStatus, ReviewAction[]>;

export type StatusColor = 'warning' | 'error' | 'success' | 'default';

export interface ReviewDecl<Status extends string = string, Action extends string = string> {
  /** The react-admin resource the actions run on (`POST …/{id}/{action}`); by default the page's own. */
  resource?: string;
  /** i18n prefix of the messages above, e.g. `resources.novel/review`. */
  messages: string;
  /** i18n prefix of the status names (`<statusMessages>.<status>`), e.g. `resources.novel.status`. */
  statusMessages: string;
  /** The status chip's colour of each status; by default pending warns, rejected errs, online succeeds. */
  statusColors?: Partial<Record<Status, StatusColor>>;
  /** The actions the API allows from each status (its transition table). */
  transitions: Record<Status, readonly Action[]>;
  /** Actions that need a reason (asked in the dialog; confirm stays disabled until one is given). */
  reasonRequired: readonly Action[];
  /** Actions after which the item leaves the page's list: the edit page goes back to the list. Others reload. */
  backToList: readonly Action[];
  /** Actions shown as a warning (taking something away: reject, offline). */
  warn: readonly Action[];
}

/** A batch question's key: `confirmApprove` for `approve`. */
export const batchQuestion = (messages: string, action: string) =>
  `${messages}.action.confirm${action.charAt(0).toUpperCase()}${action.slice(1)}`;

/** A reason the API accepts: something besides white space. */
export const hasReason = (body: Record<string, unknown>) =>
  typeof body.reason === 'string' && body.reason.trim().length > 0;
