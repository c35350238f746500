import type zh from '../zh-CN/review';

/** API messages of the review kit (core/review.ts, shared by movies, novels…): the statuses and actions, en-US. */
const review: Record<keyof typeof zh, string> = {
  'review.status.pending': 'pending review',
  'review.status.rejected': 'rejected',
  'review.status.online': 'online',
  'review.status.offline': 'offline',
  'review.action.approve': 'approved',
  'review.action.reject': 'rejected',
  'review.action.offline': 'taken offline',
  'review.action.online': 'put online',
};
export default review;
