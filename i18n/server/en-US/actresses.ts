import type zh from '../zh-CN/actresses';

/** API messages of the actresses module, en-US. */
const actresses: Record<keyof typeof zh, string> = {
  'actress.hasMovies': 'She is linked to {count} movie(s); confirm the deletion to unlink them as well',
  'actress.hasMoviesBatch':
    'The selected actresses are linked to {count} movie(s) in all; confirm the deletion to unlink them as well. Nothing in this batch was changed',
  'actress.debutRange': 'The debut year range starts after it ends',
  'actress.birthdayFuture': 'The birthday cannot be after today',
  'actress.debutFuture': 'The debut year cannot be after this year',
  'actress.debutBeforeBirth':
    'The debut year cannot be before the year of birth: check the birthday and the debut year',
};
export default actresses;
