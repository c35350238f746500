import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { SerialStatus } from '../../../common/novel';
import { REVIEW_STATUSES, type ReviewStatus } from '../../../common/review';
import { columnTreeTable } from '../../core/column-table';

/** Review status: the review workflow's four (common/review.ts: pending → online or rejected; online ⇄ offline). */
export const NOVEL_STATUSES = REVIEW_STATUSES;
export type NovelStatus = ReviewStatus;

const stamps = {
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Novel columns: a tree like the movie columns; `item_count` counted by statement triggers on `novels` (made in SQL:
 * Drizzle declares no trigger).
 */
export const novelColumns = columnTreeTable('novel_columns');

/**
 * A novel. `search_grams` holds the characters and bigrams of the title and of the author (`zg_title_grams`,
 * each on its own, never across the two) under a GIN index, so a one- or two-character Chinese
 * search of titles and authors is index-served. `tags` are free labels (GIN-indexed for the tag filter).
 * `chapter_count` and `word_count` are kept by statement triggers on `novel_chapters`, in the
 * transaction of the change, whichever route (or seed, or cascade) wrote the chapters.
 */
export const novels = pgTable(
  'novels',
  {
    id: serial('id').primaryKey(),
    title: varchar('title', { length: 200 }).notNull(),
    author: varchar('author', { length: 64 }).notNull().default(''),
    searchGrams: text('search_grams')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`zg_title_grams(title) || zg_title_grams(author)`),
    cover: varchar('cover', { length: 512 }).notNull().default(''),
    columnId: integer('column_id').references(() => novelColumns.id),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    description: text('description').notNull().default(''),
    serialStatus: varchar('serial_status', { length: 16 }).$type<SerialStatus>().notNull().default('ongoing'),
    status: varchar('status', { length: 16 }).$type<NovelStatus>().notNull().default('pending'),
    rejectReason: varchar('reject_reason', { length: 500 }).notNull().default(''),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The first N chapters (by number) are free to read; the rest are paid. */
    freeChapters: integer('free_chapters').notNull().default(0),
    chapterCount: integer('chapter_count').notNull().default(0),
    wordCount: integer('word_count').notNull().default(0),
    views: integer('views').notNull().default(0),
    ...stamps,
  },
  (t) => [
    index('novels_search_grams').using('gin', t.searchGrams),
    index('novels_tags').using('gin', t.tags),
    index('novels_status_created').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('novels_created').on(t.createdAt.desc(), t.id.desc()),
    index('novels_updated').on(t.updatedAt.desc(), t.id.desc()),
    index('novels_column').on(t.columnId),
    index('novels_author').on(t.author),
  ],
);

/**
 * A chapter: its position `number` (1, 2, 3… without gaps, unique in its novel), title, plain-text content and its
 * word count (common/words.ts, computed by the API from the content). Renumbering goes through negative numbers
 * first, so the unique index never sees two chapters on one number mid-statement.
 */
export const novelChapters = pgTable(
  'novel_chapters',
  {
    id: serial('id').primaryKey(),
    novelId: integer('novel_id')
      .notNull()
      .references(() => novels.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    content: text('content').notNull().default(''),
    wordCount: integer('word_count').notNull().default(0),
    ...stamps,
  },
  (t) => [uniqueIndex('novel_chapters_number').on(t.novelId, t.number)],
);
