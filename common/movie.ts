/**
 * The movie list's filters (`GET /app/admin/movie/movies`), declared once: the API's query schema has exactly these
 * (server/modules/movie/list.ts), its totals know which of them a counter answers for (totals.ts), and the SPA's
 * filter forms name them.
 */
export const MOVIE_LIST_FILTERS = [
  'view',
  'q',
  'columnId',
  'tagId',
  'platform',
  'status',
  'createdFrom',
  'createdTo',
  'publishedFrom',
  'publishedTo',
  'recommended',
  'free',
  'viewsMin',
  'viewsMax',
] as const;
export type MovieListFilter = (typeof MOVIE_LIST_FILTERS)[number];

/**
 * The filters the counters of `movie_counts` answer for (a view or status and at most one of column, tag,
 * platform, free and recommended): a list filtered by these alone has an exact total at any size; any other filter is counted (capped).
 */
export const MOVIE_COUNTED_FILTERS = [
  'view',
  'status',
  'columnId',
  'tagId',
  'platform',
  'free',
  'recommended',
] as const satisfies readonly MovieListFilter[];

/**
 * The longest description a movie may have, in characters: what the form and the API accept, and the most the MacCMS
 * move and collection write, so every stored description can be saved again. MacCMS keeps vod_content in a MEDIUMTEXT
 * (16 MB): this bound is far above any real synopsis with its markup (the move cuts longer ones and says so in its
 * report), and a form holding it stays well inside the API's body limit (1 MB by default).
 */
export const MAX_MOVIE_DESCRIPTION = 50_000;
