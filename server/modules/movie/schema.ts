import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { REVIEW_STATUSES, type ReviewStatus } from '../../../common/review';
import { columnTreeTable } from '../../core/column-table';

/** The review workflow's statuses (common/review.ts). */
export const MOVIE_STATUSES = REVIEW_STATUSES;
export type MovieStatus = ReviewStatus;
export const SOURCE_TYPES = ['hls', 'mp4'] as const;

const stamps = {
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Columns (categories) form a tree (core/column-table.ts, routes in core/column-tree.ts). `item_count` is every movie in the column, whatever its
 * status; statement triggers on `movies` keep it, so bulk seeds and raw SQL keep it right too.
 */
export const movieColumns = columnTreeTable('movie_columns');

/** Tags: a unique name, a free-form group, a hot flag; `item_count` kept by triggers on `movie_tags`. */
export const movieTags = pgTable(
  'movie_tags',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 32 }).notNull(),
    group: varchar('group', { length: 32 }).notNull().default(''),
    hot: boolean('hot').notNull().default(false),
    itemCount: integer('item_count').notNull().default(0),
    ...stamps,
  },
  (t) => [uniqueIndex('movie_tags_name').on(t.name)],
);

/** Video sources (CDN lines): a play entry's URL is `base_url` + its path, built at read time. */
export const videoSources = pgTable(
  'video_sources',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    code: varchar('code', { length: 32 }).notNull(),
    baseUrl: varchar('base_url', { length: 512 }).notNull(),
    type: varchar('type', { length: 8 }).$type<(typeof SOURCE_TYPES)[number]>().notNull().default('hls'),
    priority: integer('priority').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    ...stamps,
  },
  (t) => [uniqueIndex('video_sources_code').on(t.code)],
);

/**
 * The content item. `title_grams` is generated from the title by `zg_title_grams` (its characters and character
 * bigrams, lower-cased) and GIN-indexed, so a 1- or 2-character Chinese search is index-served.
 */
export const movies = pgTable(
  'movies',
  {
    id: serial('id').primaryKey(),
    title: varchar('title', { length: 200 }).notNull(),
    titleGrams: text('title_grams').array().notNull().generatedAlwaysAs(sql`zg_title_grams(title)`),
    description: text('description').notNull().default(''),
    cover: varchar('cover', { length: 512 }).notNull().default(''),
    columnId: integer('column_id').references(() => movieColumns.id),
    platforms: integer('platforms').array().notNull().default(sql`'{}'::integer[]`),
    /** The movie's tag ids, sorted: kept from movie_tag_links by its triggers; never written here. */
    tagIds: integer('tag_ids').array().notNull().default(sql`'{}'::integer[]`),
    duration: integer('duration').notNull().default(0),
    releaseDate: date('release_date', { mode: 'string' }),
    free: boolean('free').notNull().default(true),
    sortWeight: integer('sort_weight').notNull().default(0),
    recommended: boolean('recommended').notNull().default(false),
    views: integer('views').notNull().default(0),
    likes: integer('likes').notNull().default(0),
    comments: integer('comments').notNull().default(0),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull().default('pending'),
    rejectReason: varchar('reject_reason', { length: 500 }).notNull().default(''),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    ...stamps,
  },
  // Sort indexes as the list orders, `col DESC NULLS LAST, id DESC`, read backwards for ascending; `status` last so
  // that a view or a deep page is an index-only scan. The two screens' sort indexes also INCLUDE
  // column_id, platforms, recommended, free, views and tag_ids, so a filtered walk tests them in the index (migrations
  // 0070 and 0100; Drizzle declares no INCLUDE). The status-led ones carry the lowered title as their last key and
  // INCLUDE the title, so a title search's walk of a status tests it in the index.
  (t) => [
    index('movies_published').on(t.publishedAt.desc().nullsLast(), t.id.desc(), t.status),
    index('movies_created').on(t.createdAt.desc().nullsLast(), t.id.desc(), t.status),
    index('movies_column_created').on(t.columnId, t.createdAt.desc().nullsLast(), t.id.desc(), t.status),
    index('movies_recommended_published')
      .on(t.publishedAt.desc().nullsLast(), t.id.desc(), t.status)
      .where(sql`${t.recommended}`),
    index('movies_views').on(t.views.desc().nullsLast(), t.id.desc(), t.status),
    index('movies_status_published').on(
      t.status,
      t.publishedAt.desc().nullsLast(),
      t.id.desc(),
      sql`lower(${t.title})`,
    ),
    index('movies_status_created').on(
      t.status,
      t.createdAt.desc().nullsLast(),
      t.id.desc(),
      sql`lower(${t.title})`,
    ),
    // The provide API's `h`: online movies changed lately, newest change first.
    index('movies_status_updated').on(t.status, t.updatedAt.desc(), t.id.desc()),
    index('movies_column').on(t.columnId, t.publishedAt.desc().nullsLast(), t.id.desc(), t.status),
    index('movies_platforms').using('gin', t.platforms),
    index('movies_tag_ids').using('gin', t.tagIds),
    index('movies_title_grams').using('gin', t.titleGrams),
  ],
);

export const MOVIE_COUNT_DIMS = ['all', 'column', 'tag', 'platform', 'free', 'recommended'] as const;

/**
 * Movies per status, overall (`dim` 'all', `key` 0) and per column, tag and platform (`key` = the column or tag id,
 * or the platform key): the exact totals of the lists, kept by statement triggers on `movies` and
 * `movie_tag_links`; `zg_movie_counts_rebuild()` recomputes them.
 */
export const movieCounts = pgTable(
  'movie_counts',
  {
    dim: varchar('dim', { length: 16 }).$type<(typeof MOVIE_COUNT_DIMS)[number]>().notNull(),
    key: integer('key').notNull(),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dim, t.key, t.status] })],
);

/**
 * Movies per counter of movie_counts (`dim`, `key`), status and week (UTC, from Monday) of their creation (`sort`
 * 'created') or publication ('published'): where a deep page of a view, alone or with one counted filter, starts
 * (kept by a statement trigger on `movies`).
 */
export const movieCountWeeks = pgTable(
  'movie_count_weeks',
  {
    dim: varchar('dim', { length: 16 }).$type<(typeof MOVIE_COUNT_DIMS)[number]>().notNull(),
    key: integer('key').notNull(),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull(),
    sort: varchar('sort', { length: 16 }).$type<'created' | 'published'>().notNull(),
    week: date('week').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dim, t.key, t.status, t.sort, t.week] })],
);

/**
 * Movies per gram of their title (`title_grams`: each character and each pair), status and column (0 for none): the
 * exact total of a title search of one or two characters, which is one gram, in a view or status and at most a
 * column (kept by statement triggers on `movies`; `zg_movie_counts_rebuild()` recomputes
 * them).
 */
export const movieGramCounts = pgTable(
  'movie_gram_counts',
  {
    gram: text('gram').notNull(),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull(),
    columnId: integer('column_id').notNull().default(0),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.gram, t.status, t.columnId] })],
);

/**
 * The title searches of three or more characters whose totals are kept: each lowered search, its
 * first two characters (a title holds it only when its grams hold them) and the day it was last searched. Learned
 * when first searched (movie/totals.ts termTotal), the least recently searched leave.
 */
export const movieSearchTerms = pgTable(
  'movie_search_terms',
  {
    term: text('term').primaryKey(),
    head: text('head').notNull(),
    /** Set once the term's counts are learned (movie/totals.ts registerTerm). */
    ready: boolean('ready').notNull().default(false),
    usedOn: date('used_on').notNull().default(sql`current_date`),
  },
  (t) => [index('movie_search_terms_head').on(t.head)],
);

/**
 * Movies per kept search term, status and column (0 for none) whose lowered title contains the term (counted
 * by statement triggers on `movies`; `zg_movie_counts_rebuild()` recomputes them).
 */
export const movieSearchCounts = pgTable(
  'movie_search_counts',
  {
    term: text('term').notNull(),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull(),
    columnId: integer('column_id').notNull().default(0),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.term, t.status, t.columnId] })],
);

/**
 * Movies per kept search term, status and week (UTC, from Monday) of their creation (`sort` 'created') or
 * publication ('published'): where a deep page of the search starts (kept with movie_search_counts).
 */
export const movieSearchWeeks = pgTable(
  'movie_search_weeks',
  {
    term: text('term').notNull(),
    sort: varchar('sort', { length: 16 }).$type<'created' | 'published'>().notNull(),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull(),
    week: date('week').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.term, t.sort, t.status, t.week] })],
);

/**
 * The title searches of three or more characters whose matches are kept, as movieSearchTerms: for
 * the statistics' list of movies not seen in a period (statistics/seen.ts), learned when it is first searched there.
 */
export const movieSearchListed = pgTable(
  'movie_search_listed',
  {
    term: text('term').primaryKey(),
    head: text('head').notNull(),
    ready: boolean('ready').notNull().default(false),
    usedOn: date('used_on').notNull().default(sql`current_date`),
  },
  (t) => [index('movie_search_listed_head').on(t.head)],
);

/**
 * The movies whose lowered title contains a listed term, by term, status, publication (newest first) and id (maintained
 * by statement triggers on `movies` as counts: a movie matches where `n` is 1; `zg_movie_counts_rebuild()` recomputes
 * them). The key's index treats no publication as one value (NULLS NOT DISTINCT, written in the migration).
 */
export const movieSearchMatches = pgTable(
  'movie_search_matches',
  {
    term: text('term').notNull(),
    status: varchar('status', { length: 16 }).$type<MovieStatus>().notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    id: integer('id').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [
    uniqueIndex('movie_search_matches_key').on(
      t.term,
      t.status,
      t.publishedAt.desc().nullsLast(),
      t.id.desc(),
    ),
  ],
);

export const movieTagLinks = pgTable(
  'movie_tag_links',
  {
    movieId: integer('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => movieTags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.movieId, t.tagId] }), index('movie_tag_links_tag').on(t.tagId, t.movieId)],
);

/**
 * The actresses of a movie. Deleting a movie takes its links with it; an actress with links cannot be deleted
 * (no cascade): the actresses module unlinks her movies in the same transaction, bumping their versions.
 * `actress_id` references `actresses(id)` in the database (the migration's foreign key); it is not declared here
 * because the actresses module builds on this one (her movies) and this module must not import it back.
 */
export const movieActresses = pgTable(
  'movie_actresses',
  {
    movieId: integer('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    actressId: integer('actress_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.movieId, t.actressId] }),
    index('movie_actresses_actress').on(t.actressId),
  ],
);

/**
 * Episodes: a movie's source lines (`line`, in order), each a list of named episodes (`sort` within the line); every
 * episode of a line is on the line's source. A path is relative to the source's base URL, or a whole URL; the URL is
 * built at read time. A nameless episode is the main feature (正片).
 */
export const moviePlays = pgTable(
  'movie_plays',
  {
    id: serial('id').primaryKey(),
    movieId: integer('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'cascade' }),
    sourceId: integer('source_id')
      .notNull()
      .references(() => videoSources.id),
    line: integer('line').notNull().default(0),
    name: varchar('name', { length: 64 }).notNull().default(''),
    path: varchar('path', { length: 1024 }).notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('movie_plays_movie').on(t.movieId, t.line, t.sort),
    index('movie_plays_source').on(t.sourceId),
  ],
);
