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
  varchar,
} from 'drizzle-orm/pg-core';
import type { CommentTarget, FilterModule, GuestbookKind } from '../../../common/comment';
import type { ReviewStatus } from '../../../common/review';
import { movies } from '../movie/schema';
import { siteUsers } from '../users/schema';

/**
 * Comments and the guestbook, reviewed with the review kit's statuses (common/review.ts): pending,
 * rejected, online (shown on the site) and offline (hidden). `original_content` keeps what the member wrote when
 * the filter masked words in `content`. A reply names its `parent_id` (replies are listed under it).
 */
const stamps = {
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
const review = {
  status: varchar('status', { length: 16 }).$type<ReviewStatus>().notNull().default('pending'),
  rejectReason: varchar('reject_reason', { length: 500 }).notNull().default(''),
  reviewedBy: integer('reviewed_by'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
};

export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    targetType: varchar('target_type', { length: 16 }).$type<CommentTarget>().notNull(),
    targetId: integer('target_id').notNull(),
    userId: integer('user_id').references(() => siteUsers.id, { onDelete: 'set null' }),
    guestName: varchar('guest_name', { length: 32 }).notNull().default(''),
    parentId: integer('parent_id').references((): any => comments.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    originalContent: text('original_content'),
    address: varchar('address', { length: 45 }).notNull().default(''),
    likes: integer('likes').notNull().default(0),
    reports: integer('reports').notNull().default(0),
    ...review,
    ...stamps,
  },
  (t) => [
    index('comments_tenant_created').on(t.tenant, t.createdAt, t.id),
    // The content search by id bucket.
    index('comments_content_buckets').using('gin', sql`zg_bucket_grams(${t.content}, ${t.id})`),
    index('comments_status').on(t.tenant, t.status, t.createdAt, t.id),
    index('comments_user').on(t.userId, t.createdAt),
    index('comments_address').on(t.tenant, t.address, t.createdAt),
    index('comments_target').on(t.targetType, t.targetId, t.createdAt),
    index('comments_target_type').on(t.tenant, t.targetType, t.createdAt, t.id),
    index('comments_status_target_type').on(t.tenant, t.status, t.targetType, t.createdAt, t.id),
    index('comments_parent').on(t.parentId),
    index('comments_reported').on(t.tenant, t.createdAt).where(sql`${t.reports} > 0`),
    index('comments_likes').on(t.tenant, t.likes, t.id),
    index('comments_reports').on(t.tenant, t.reports, t.id),
  ],
);

/**
 * How many comments each tenant has per status, target type, top level (no parent) and reported (reports > 0), kept
 * by statement triggers: the list's exact total with no filter or any of those four.
 */
export const commentCounts = pgTable(
  'comment_counts',
  {
    tenant: integer('tenant').notNull(),
    status: varchar('status', { length: 16 }).$type<ReviewStatus>().notNull(),
    targetType: varchar('target_type', { length: 16 }).$type<CommentTarget>().notNull(),
    topLevel: boolean('top_level').notNull(),
    reported: boolean('reported').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.status, t.targetType, t.topLevel, t.reported] })],
);

/**
 * The content searches whose totals are kept, per tenant (comment/terms.ts): the lowered search,
 * whether it is counted yet (`ready`), whether it matched too many to count (`common`), the day last searched.
 */
export const commentSearchTerms = pgTable(
  'comment_search_terms',
  {
    tenant: integer('tenant').notNull(),
    term: text('term').notNull(),
    ready: boolean('ready').notNull().default(false),
    common: boolean('common').notNull().default(false),
    usedOn: date('used_on').notNull().default(sql`current_date`),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.term] })],
);

/** Comments per tenant, kept search term and status whose content contains the term in any case. */
export const commentSearchCounts = pgTable(
  'comment_search_counts',
  {
    tenant: integer('tenant').notNull(),
    term: text('term').notNull(),
    status: varchar('status', { length: 16 }).$type<ReviewStatus>().notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.term, t.status] })],
);

export const guestbook = pgTable(
  'guestbook',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    userId: integer('user_id').references(() => siteUsers.id, { onDelete: 'set null' }),
    guestName: varchar('guest_name', { length: 32 }).notNull().default(''),
    contact: varchar('contact', { length: 128 }).notNull().default(''),
    kind: varchar('kind', { length: 16 }).$type<GuestbookKind>().notNull().default('message'),
    movieId: integer('movie_id').references(() => movies.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    originalContent: text('original_content'),
    address: varchar('address', { length: 45 }).notNull().default(''),
    reply: text('reply').notNull().default(''),
    repliedBy: integer('replied_by'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    ...review,
    ...stamps,
  },
  (t) => [
    index('guestbook_tenant_created').on(t.tenant, t.createdAt, t.id),
    index('guestbook_status').on(t.tenant, t.status, t.createdAt, t.id),
    index('guestbook_user').on(t.userId, t.createdAt),
    index('guestbook_address').on(t.tenant, t.address, t.createdAt),
    index('guestbook_movie').on(t.movieId),
  ],
);

/** The filter of each module (comments, guestbook) per tenant; `version` is also the compiled automaton's key. */
export const commentFilters = pgTable(
  'comment_filters',
  {
    tenant: integer('tenant').notNull(),
    module: varchar('module', { length: 16 }).$type<FilterModule>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    reviewFirst: boolean('review_first').notNull().default(false),
    loginRequired: boolean('login_required').notNull().default(true),
    userInterval: integer('user_interval').notNull().default(0),
    addressInterval: integer('address_interval').notNull().default(0),
    maskWords: text('mask_words').array().notNull().default(sql`'{}'::text[]`),
    blockWords: text('block_words').array().notNull().default(sql`'{}'::text[]`),
    holdWords: text('hold_words').array().notNull().default(sql`'{}'::text[]`),
    blacklist: text('blacklist').array().notNull().default(sql`'{}'::text[]`),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.module] })],
);
