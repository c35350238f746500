import type zh from '../zh-CN/movies';

/** API messages of the movies module, en-US. */
const movies: Record<keyof typeof zh, string> = {
  'movie.status.pending': 'pending review',
  'movie.status.rejected': 'rejected',
  'movie.status.online': 'online',
  'movie.status.offline': 'offline',
  'movie.action.approve': 'approved',
  'movie.action.reject': 'rejected',
  'movie.action.offline': 'taken offline',
  'movie.action.online': 'put online',
  'movie.transition': 'This item is {status}; it cannot be {action}',
  'movie.transitionBatch': 'Item #{id} is {status} and cannot be {action}; nothing in this batch was changed',
  'tag.mergeSelf': 'A tag cannot be merged into itself',
  'source.inUse': 'This source is still used by {count} play entries; it cannot be deleted',
};
export default movies;
