import { z } from '@hono/zod-openapi';
import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { MAX_EPISODE_NAME, MAX_EPISODE_URL, MAX_EPISODES, MAX_LINES } from '../../../common/episodes';
import { MAX_MOVIE_DESCRIPTION } from '../../../common/movie';
import { containsPattern, day, id, idArray, iso } from '../../core/shared';
import type { Executor } from '../../db/types';
import { imageField } from '../images/paths';
import { MOVIE_STATUSES, movieActresses, movieColumns, moviePlays, movies, videoSources } from './schema';

/** A play URL: the source's base URL and the entry's path, joined with one slash. */
export function playUrl(baseUrl: string, path: string) {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A movie's episodes over all its lines: a long series on a few lines, bounded so one save stays one small write. */
export const MAX_PLAYS = 5000;

export const Play = z.object({
  id: z.number(),
  sourceId: z.number(),
  sourceName: z.string(),
  sourceType: z.string(),
  sourceEnabled: z.boolean(),
  /** The source line (0-based, in the order the site lists its lines). */
  line: z.number(),
  /** The episode's name within its line ('' for the main feature, shown as 正片). */
  name: z.string(),
  path: z.string(),
  /** The episode's place within its line. */
  sort: z.number(),
  url: z.string(),
});

export const Movie = z
  .object({
    id: z.number(),
    title: z.string(),
    description: z.string(),
    cover: z.string(),
    columnId: z.number().nullable(),
    columnName: z.string().nullable(),
    tagIds: z.array(z.number()),
    actressIds: z.array(z.number()).optional(),
    plays: z.array(Play).optional(),
    platforms: z.array(z.number()),
    duration: z.number(),
    releaseDate: z.string().nullable(),
    free: z.boolean(),
    sortWeight: z.number(),
    recommended: z.boolean(),
    views: z.number(),
    likes: z.number(),
    comments: z.number(),
    status: z.enum(MOVIE_STATUSES),
    rejectReason: z.string(),
    reviewedBy: z.number().nullable(),
    reviewedAt: z.string().nullable(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('Movie');

/** What a create or an update may set. Read-only fields a form sends back (id, counters, status…) are ignored. */
export const movieFields = {
  title: z.string().trim().min(1).max(200),
  description: z.string().max(MAX_MOVIE_DESCRIPTION),
  cover: imageField(),
  columnId: id.nullable(),
  tagIds: idArray(50),
  actressIds: idArray(50),
  platforms: z.array(z.number().int().min(0).max(9999)).max(20),
  duration: z.number().int().min(0).max(864_000),
  releaseDate: day.nullable(),
  free: z.boolean(),
  sortWeight: z.number().int().min(-1_000_000).max(1_000_000),
  recommended: z.boolean(),
  /** Episodes, each on a line; a line's episodes share one source (checked in `checkRefs`). */
  plays: z
    .array(
      z.object({
        sourceId: id,
        line: z
          .number()
          .int()
          .min(0)
          .max(MAX_LINES - 1)
          .optional(),
        name: z.string().trim().max(MAX_EPISODE_NAME).optional(),
        path: z.string().trim().min(1).max(MAX_EPISODE_URL),
        sort: z.number().int().min(0).max(MAX_EPISODES).optional(),
      }),
    )
    .max(MAX_PLAYS),
};

export const movieSelect = {
  id: movies.id,
  title: movies.title,
  description: movies.description,
  cover: movies.cover,
  columnId: movies.columnId,
  columnName: movieColumns.name,
  platforms: movies.platforms,
  tagIds: movies.tagIds,
  duration: movies.duration,
  releaseDate: movies.releaseDate,
  free: movies.free,
  sortWeight: movies.sortWeight,
  recommended: movies.recommended,
  views: movies.views,
  likes: movies.likes,
  comments: movies.comments,
  status: movies.status,
  rejectReason: movies.rejectReason,
  reviewedBy: movies.reviewedBy,
  reviewedAt: movies.reviewedAt,
  publishedAt: movies.publishedAt,
  createdAt: movies.createdAt,
  updatedAt: movies.updatedAt,
  version: movies.version,
};

type Row = Record<string, any>;

/** A movie row as the API answers it (its tag ids from the kept `tag_ids`). */
export function movieToApi(r: Row) {
  return {
    ...r,
    columnName: r.columnName ?? null,
    platforms: (r.platforms ?? []).map(Number),
    releaseDate: r.releaseDate ? String(r.releaseDate).slice(0, 10) : null,
    reviewedAt: iso(r.reviewedAt),
    publishedAt: iso(r.publishedAt),
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
    tagIds: (r.tagIds ?? []).map(Number),
  } as z.infer<typeof Movie>;
}

/** One movie with its tags, actresses and play entries (URLs built from the sources now). Undefined if absent. */
export async function readMovie(db: Executor, movieId: number) {
  const [row] = await db
    .select(movieSelect)
    .from(movies)
    .leftJoin(movieColumns, eq(movieColumns.id, movies.columnId))
    .where(eq(movies.id, movieId));
  if (!row) return undefined;
  const actressQuery = db
    .select({ actressId: movieActresses.actressId })
    .from(movieActresses)
    .where(eq(movieActresses.movieId, movieId))
    .orderBy(asc(movieActresses.actressId));
  const playQuery = db
    .select({
      id: moviePlays.id,
      sourceId: moviePlays.sourceId,
      sourceName: videoSources.name,
      sourceType: videoSources.type,
      sourceEnabled: videoSources.enabled,
      baseUrl: videoSources.baseUrl,
      line: moviePlays.line,
      name: moviePlays.name,
      path: moviePlays.path,
      sort: moviePlays.sort,
    })
    .from(moviePlays)
    .innerJoin(videoSources, eq(videoSources.id, moviePlays.sourceId))
    .where(eq(moviePlays.movieId, movieId))
    .orderBy(asc(moviePlays.line), asc(moviePlays.sort), asc(moviePlays.id));
  // A transaction holds one connection: its statements go one after another (the audit log reads the movie
  // before and after an edit in the edit's transaction).
  const [actresses, plays] =
    'rollback' in db ? [await actressQuery, await playQuery] : await Promise.all([actressQuery, playQuery]);
  return {
    ...movieToApi(row),
    actressIds: actresses.map((a) => a.actressId),
    plays: plays.map(({ baseUrl, ...p }) => ({ ...p, url: playUrl(baseUrl, p.path) })),
  };
}

/**
 * Locks movie rows in id order before their links or counters are touched: every writer takes movies first, then
 * the shared counter rows, which keeps deadlocks rare (the `transaction` helper retries the rest).
 */
export async function lockMovies(db: Executor, ids: number[]) {
  if (!ids.length) return;
  await db
    .select({ id: movies.id })
    .from(movies)
    .where(inArray(movies.id, [...new Set(ids)]))
    .orderBy(asc(movies.id))
    .for('no key update');
}

/** Bumps version and updated time of movies whose links changed (an open edit form is then stale: 40900). */
export async function touchMovies(db: Executor, ids: number[], now: Date) {
  if (!ids.length) return;
  await db
    .update(movies)
    .set({ version: sql`${movies.version} + 1`, updatedAt: now })
    .where(inArray(movies.id, [...new Set(ids)]));
}

/**
 * Two-character Chinese (or any) title search, index-served (`zg_title_grams`). For one or two characters the
 * grams are the whole test (the title has that character or bigram exactly when it contains the string), so the
 * planner estimates it from the grams' statistics alone; longer strings are rechecked with LIKE.
 */
export function titleContains(q: string): SQL {
  const grams = sql`${movies.titleGrams} @> zg_query_grams(${q}::text)`;
  if ([...q].length <= 2) return grams;
  return sql`(${grams} and ${titleLike(q)})`;
}

/** The title holds `q`, ignoring case: the test itself, without the grams' index (what titleContains narrows). */
export function titleLike(q: string): SQL {
  return sql`lower(${movies.title}) like lower(${containsPattern(q)}::text)`;
}
