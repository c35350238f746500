/**
 * The review workflow both sides run (movies, novels; next comments, guestbook, ads): the statuses an item goes
 * through, the actions that move it and where from, and the two screens of SPEC.md. The API enforces it
 * (server/core/review.ts), the SPA offers only the actions it allows.
 */
export const REVIEW_STATUSES = ['pending', 'rejected', 'online', 'offline'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Who may go where: an action is allowed only from these statuses. */
export const REVIEW_TRANSITIONS = {
  approve: { from: ['pending', 'rejected'], to: 'online' },
  reject: { from: ['pending'], to: 'rejected' },
  offline: { from: ['online'], to: 'offline' },
  online: { from: ['offline'], to: 'online' },
} as const satisfies Record<string, { from: readonly ReviewStatus[]; to: ReviewStatus }>;
export type ReviewAction = keyof typeof REVIEW_TRANSITIONS;
export const REVIEW_ACTIONS = Object.keys(REVIEW_TRANSITIONS) as ReviewAction[];

/** The actions allowed from a status, in the order of REVIEW_TRANSITIONS. */
export const actionsFrom = (status: ReviewStatus): ReviewAction[] =>
  REVIEW_ACTIONS.filter((a) => (REVIEW_TRANSITIONS[a].from as readonly ReviewStatus[]).includes(status));

/** The two screens of SPEC.md (the review queue, the online content) as sets of statuses, and all of them. */
export const REVIEW_VIEWS = {
  review: ['pending', 'rejected'],
  online: ['online', 'offline'],
  all: REVIEW_STATUSES,
} as const satisfies Record<string, readonly ReviewStatus[]>;
export type ReviewView = keyof typeof REVIEW_VIEWS;
