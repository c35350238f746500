import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { actresses } from '../actresses/schema';
import { movieColumns, movies } from '../movie/schema';
import { novelColumns, novels } from '../novel/schema';

export const COLLECT_FORMATS = ['json', 'xml'] as const;
/** What a site serves: MacCMS's `provide/vod` (movies), `provide/art` (novels) or `provide/actor` (actresses). */
export const SOURCE_KINDS = ['vod', 'art', 'actor'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** `remote`: covers keep the site's URL; `local`: they are fetched into our image store (collect/covers.ts). */
export const IMAGE_MODES = ['remote', 'local'] as const;
export const RUN_KINDS = ['hours', 'pages', 'keyword', 'ids'] as const;
export const RUN_STATUSES = ['running', 'done', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A resource site: its provide API's base URL (`…/api.php/provide/vod/`), format, trust and schedule. */
export const collectSources = pgTable(
  'collect_sources',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    url: varchar('url', { length: 512 }).notNull(),
    /** Fixed when the source is added: its bindings and item records are of this kind. */
    kind: varchar('kind', { length: 8 }).$type<SourceKind>().notNull().default('vod'),
    /** The site's key, sent as `key=` (never in `url`: the API answers it masked, the audit log redacts it). */
    apiKey: varchar('api_key', { length: 128 }).notNull().default(''),
    format: varchar('format', { length: 8 })
      .$type<(typeof COLLECT_FORMATS)[number]>()
      .notNull()
      .default('json'),
    trusted: boolean('trusted').notNull().default(false),
    imageMode: varchar('image_mode', { length: 8 })
      .$type<(typeof IMAGE_MODES)[number]>()
      .notNull()
      .default('remote'),
    /** Every so many minutes the schedule collects the last `scheduleHours` hours; 0 = no schedule. */
    scheduleMinutes: integer('schedule_minutes').notNull().default(0),
    scheduleHours: integer('schedule_hours').notNull().default(24),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** A scheduled run's claim: another instance leaves the source alone until then. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** Scheduled runs failed in a row: the back-off's exponent. */
    failCount: integer('fail_count').notNull().default(0),
    lastError: varchar('last_error', { length: 512 }).notNull().default(''),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('collect_sources_name').on(t.name), index('collect_sources_due').on(t.nextRunAt)],
);

/**
 * A remote type bound to one of our columns (a movie column for a video site, a novel column for an article site),
 * or skipped; a type with neither is unbound (its items skipped). A performer site's types are not bound.
 */
export const collectBindings = pgTable(
  'collect_bindings',
  {
    sourceId: integer('source_id')
      .notNull()
      .references(() => collectSources.id, { onDelete: 'cascade' }),
    remoteTypeId: integer('remote_type_id').notNull(),
    remoteTypeName: varchar('remote_type_name', { length: 64 }).notNull().default(''),
    columnId: integer('column_id').references(() => movieColumns.id, { onDelete: 'set null' }),
    novelColumnId: integer('novel_column_id').references(() => novelColumns.id, { onDelete: 'set null' }),
    skipped: boolean('skipped').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.remoteTypeId] })],
);

/** One collection: what it asked for, its progress and counts, its per-item log, who started it. */
export const collectRuns = pgTable(
  'collect_runs',
  {
    id: serial('id').primaryKey(),
    sourceId: integer('source_id')
      .notNull()
      .references(() => collectSources.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 8 }).$type<(typeof RUN_KINDS)[number]>().notNull(),
    params: jsonb('params').notNull().default({}),
    dryRun: boolean('dry_run').notNull().default(false),
    status: varchar('status', { length: 12 }).$type<RunStatus>().notNull().default('running'),
    /** The operator who started it; null for the schedule. */
    startedBy: integer('started_by'),
    startedByName: varchar('started_by_name', { length: 64 }).notNull().default(''),
    pagesDone: integer('pages_done').notNull().default(0),
    pageCount: integer('page_count').notNull().default(0),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Why the run failed: a message key (collect.fail.*), translated when read; `errorDetail` is the site's words. */
    error: varchar('error', { length: 64 }).notNull().default(''),
    errorDetail: varchar('error_detail', { length: 256 }).notNull().default(''),
    log: jsonb('log').notNull().default([]),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** Renewed by the process working on the run; lapsed while `running`, the run was interrupted (see run.ts). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('collect_runs_source').on(t.sourceId, t.id.desc()),
    index('collect_runs_running').on(t.claimedUntil).where(sql`${t.status} = 'running'`),
  ],
);

/**
 * What was last collected for a remote item: what it became (a movie, a novel or an actress, by its source's kind)
 * and each field's hash then.
 */
export const collectItems = pgTable(
  'collect_items',
  {
    sourceId: integer('source_id')
      .notNull()
      .references(() => collectSources.id, { onDelete: 'cascade' }),
    remoteId: integer('remote_id').notNull(),
    movieId: integer('movie_id').references(() => movies.id, { onDelete: 'cascade' }),
    novelId: integer('novel_id').references(() => novels.id, { onDelete: 'cascade' }),
    actressId: integer('actress_id').references(() => actresses.id, { onDelete: 'cascade' }),
    hashes: jsonb('hashes').$type<Record<string, string>>().notNull().default({}),
    collectedAt: timestamp('collected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sourceId, t.remoteId] }),
    index('collect_items_movie').on(t.movieId),
    index('collect_items_novel').on(t.novelId),
    index('collect_items_actress').on(t.actressId),
  ],
);
