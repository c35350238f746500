import type zh from '../zh-CN/movie';

/** API messages of the movie module, en-US. */
const movie: Record<keyof typeof zh, string> = {
  'movie.transition': 'This item is {status}; it cannot be {action}',
  'movie.transitionBatch': 'Item #{id} is {status} and cannot be {action}; nothing in this batch was changed',
  'tag.mergeSelf': 'A tag cannot be merged into itself',
  'movie.lineSources': 'All episodes of line {line} must use the same source',
  'source.inUse': 'This source is still used by {count} play entries; it cannot be deleted',
  'movie.releaseFuture': 'The release date cannot be after today',
};
export default movie;
