import type zh from '../zh-CN/comment';

/** API messages of the comment module (comments, guestbook, their filter), en-US. */
const comment: Record<keyof typeof zh, string> = {
  'comment.transition': 'This comment is {status}: it cannot be {action}',
  'comment.transitionBatch':
    'Comment #{id} is {status}: it cannot be {action}. Nothing in this batch was changed',
  'guestbook.transition': 'This guestbook entry is {status}: it cannot be {action}',
  'guestbook.transitionBatch':
    'Guestbook entry #{id} is {status}: it cannot be {action}. Nothing in this batch was changed',
  'comment.emptyWord': 'Nothing is left once punctuation, spaces and symbols are removed: it cannot match',
  'comment.badAddress': 'Should be an IPv4 or IPv6 address, or a CIDR range (e.g. 10.0.0.0/8)',
  'comment.loginRequired': 'Please log in to post',
  'comment.userBlocked': 'This member is disabled or banned and cannot post',
  'comment.addressBlocked': 'Posting from this address is not allowed',
  'comment.tooSoon': 'Posting too often: try again in {seconds} seconds',
  'comment.blocked': 'Contains words that may not be posted',
};
export default comment;
