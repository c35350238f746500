import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

/** A HyperLogLog sketch (sketch.ts): sparse `(index, rank)` triples or 16,384 dense registers. */
const sketch = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

const day = (name = 'day') => date(name, { mode: 'string' }).notNull();
const count = (name: string) => integer(name).notNull().default(0);
const empty = (name: string) => sketch(name).notNull().default(sql`'\\x'::bytea`);

/**
 * The raw event stream, partitioned by `day` (the event's day in the tenant's time zone when it was received):
 * `stat_events_pYYYYMMDD` partitions are made on demand by the ingestion and dropped whole after the retention
 * setting. The key (tenant, day, id) makes a retried event a no-op; it holds the partition key, as
 * PostgreSQL requires. `visitor_hash` and `address_hash` are the first 64 bits of the MD5 of the visitor id and the
 * address (`zg_hash64`), so the rollup builds sketches without hashing again.
 */
export const statEvents = pgTable(
  'stat_events',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    id: varchar('id', { length: 64 }).notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    path: varchar('path', { length: 512 }).notNull(),
    referrer: varchar('referrer', { length: 253 }).notNull().default(''),
    device: varchar('device', { length: 16 }).notNull().default(''),
    browser: varchar('browser', { length: 32 }).notNull().default(''),
    os: varchar('os', { length: 32 }).notNull().default(''),
    country: varchar('country', { length: 32 }).notNull().default(''),
    province: varchar('province', { length: 32 }).notNull().default(''),
    address: varchar('address', { length: 45 }).notNull().default(''),
    addressHash: bigint('address_hash', { mode: 'bigint' }).notNull(),
    visitor: varchar('visitor', { length: 64 }).notNull(),
    visitorHash: bigint('visitor_hash', { mode: 'bigint' }).notNull(),
    /** `zg_hll_reg` of the hashes, computed on insert (null on events stored before the column existed). */
    visitorReg: integer('visitor_reg'),
    addressReg: integer('address_reg'),
    channel: varchar('channel', { length: 64 }).notNull().default(''),
    objectType: varchar('object_type', { length: 16 }).notNull().default(''),
    objectId: integer('object_id').notNull().default(0),
    keyword: varchar('keyword', { length: 100 }).notNull().default(''),
    results: integer('results'),
    amount: numeric('amount', { precision: 14, scale: 2 }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The insert statement's number (sequence `stat_event_batches`; null on events stored before the column existed):
     * see statFoldQueue.
     */
    batch: bigint('batch', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.day, t.id] }),
    index('stat_events_batch_idx').using('brin', t.batch),
    index('stat_events_conversions_idx').on(t.tenant, t.day).where(sql`${t.type} in ('signup', 'recharge')`),
  ],
);

/**
 * The rollup's work: the batches stored since the rollup last folded their day, queued by the ingestion's insert in
 * the same statement as the events, and the days to recompute whole from their raw events as batch `WHOLE_DAY` (0;
 * the attribution marks later days whose credit may move, a day's first-seen visitors moved earlier the days they
 * were new on). The rollup deletes a day's rows in the transaction that rolls it up.
 */
export const statFoldQueue = pgTable(
  'stat_fold_queue',
  { tenant: integer('tenant').notNull(), day: day(), batch: bigint('batch', { mode: 'number' }).notNull() },
  (t) => [primaryKey({ columns: [t.tenant, t.day, t.batch] })],
);
/** The batch number that queues a day to be recomputed whole (`stat_fold_queue`; the batches' sequence starts at 1). */
export const WHOLE_DAY = 0;

/** The first day each visitor was seen per domain (domain '' = the whole site): new visitors come from it. */
export const statVisitors = pgTable(
  'stat_visitors',
  {
    tenant: integer('tenant').notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    visitor: bigint('visitor', { mode: 'bigint' }).notNull(),
    firstDay: day('first_day'),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.domain, t.visitor] })],
);

/**
 * Per day, domain ('' = the site) and visitor: the hours (bits 0–23 of the tenant's clock) it viewed one page in
 * (`once`) and more than one (`more`), and whether the day counts it new: what its visits, bounces and new visitors
 * are counted from (visits.ts). Only for the days rolled up from their new batches.
 */
export const statVisitorHours = pgTable(
  'stat_visitor_hours',
  {
    day: day(),
    tenant: integer('tenant').notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    visitor: bigint('visitor', { mode: 'bigint' }).notNull(),
    once: integer('once').notNull(),
    more: integer('more').notNull(),
    fresh: boolean('fresh').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.tenant, t.domain, t.visitor] })],
);

/** Searches per keyword per day; keyword '' is the day's total. */
export const statKeywordDaily = pgTable(
  'stat_keyword_daily',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    keyword: varchar('keyword', { length: 100 }).notNull(),
    searches: count('searches'),
    zeroResults: count('zero_results'),
    resultsSum: bigint('results_sum', { mode: 'number' }).notNull().default(0),
    searchers: empty('searchers'),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.day, t.keyword] }),
    index('stat_keyword_daily_key_day_idx').on(t.tenant, t.keyword, t.day),
  ],
);

/**
 * `stat_keyword_daily`'s sums over aligned blocks of 2^level days (blocks.ts), kept by triggers on it:
 * every keyword's sums over a long period read about 2·log2(days) rows a keyword.
 */
export const statKeywordBlocks = pgTable(
  'stat_keyword_blocks',
  {
    tenant: integer('tenant').notNull(),
    level: smallint('level').notNull(),
    start: date('start', { mode: 'string' }).notNull(),
    keyword: varchar('keyword', { length: 100 }).notNull(),
    searches: count('searches'),
    zeroResults: count('zero_results'),
    resultsSum: bigint('results_sum', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'stat_keyword_blocks_pk', columns: [t.tenant, t.level, t.start, t.keyword] })],
);

/**
 * Per object (movie, novel, chapter, actress, tag, ad, position) per day; object_id 0 is the type's total. A tag's
 * views and plays include those of the movies that carry it (its links when the day was rolled up).
 */
export const statObjectDaily = pgTable(
  'stat_object_daily',
  {
    tenant: integer('tenant').notNull(),
    objectType: varchar('object_type', { length: 16 }).notNull(),
    day: day(),
    objectId: integer('object_id').notNull(),
    views: count('views'),
    plays: count('plays'),
    clicks: count('clicks'),
    impressions: count('impressions'),
    viewers: empty('viewers'),
    /** Unique visitors of the object's ad_click events (ads reports). */
    clickers: empty('clickers'),
    /** Signups and recharges whose event names the object (an ad that brought them). */
    signups: count('signups'),
    recharges: count('recharges'),
    rechargeAmount: numeric('recharge_amount', { precision: 16, scale: 2 }).default('0').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.objectType, t.day, t.objectId] }),
    // An object's own days (seen.ts: "not seen" over a period before the last day seen).
    index('stat_object_daily_object_idx').on(t.tenant, t.objectType, t.objectId, t.day),
  ],
);

/** The types whose "not seen in this period" list the stats section shows (seen.ts). */
export const SEEN_TYPES = ['movie', 'tag'] as const;

/**
 * The last day an existing movie or tag had a view, per tenant: kept by the rollup (seen.ts), its rows deleted with
 * the object (triggers on movies and tags, made in SQL: Drizzle declares no trigger).
 */
export const statObjectSeen = pgTable(
  'stat_object_seen',
  {
    objectType: varchar('object_type', { length: 16 }).notNull(),
    objectId: integer('object_id').notNull(),
    tenant: integer('tenant').notNull(),
    lastDay: day('last_day'),
    /** The number (sequence stat_seen_gen) of the write that last moved the row. */
    gen: bigint('gen', { mode: 'number' }).notNull().default(0),
  },
  // The key INCLUDEs last_day, in SQL: Drizzle declares no INCLUDE.
  (t) => [
    primaryKey({ columns: [t.objectType, t.objectId, t.tenant] }),
    index('stat_object_seen_gen_idx').on(t.tenant, t.objectType, t.gen),
  ],
);

/**
 * How many listed objects (online movies, every tag) were last seen on `day`: stat_object_seen counted, kept by the
 * rollup and by the triggers on movies and tags, so a period's unseen count is a sum of few rows.
 */
export const statSeenDays = pgTable(
  'stat_seen_days',
  {
    tenant: integer('tenant').notNull(),
    objectType: varchar('object_type', { length: 16 }).notNull(),
    day: day(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.objectType, t.day] })],
);

const domainFigures = {
  pageViews: count('page_views'),
  /** Distinct visitors within the row's own day or hour (exact), the base of the bounce rate. */
  visits: count('visits'),
  bounced: count('bounced'),
  newVisitors: count('new_visitors'),
  visitors: empty('visitors'),
  addresses: empty('addresses'),
};

/** Page views per domain per day; domain '' is the whole site. */
export const statDomainDaily = pgTable(
  'stat_domain_daily',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    domain: varchar('domain', { length: 253 }).notNull(),
    ...domainFigures,
    /** The estimates of the row's own sketches (null on rows rolled up before these columns existed). */
    visitorsN: integer('visitors_n'),
    addressesN: integer('addresses_n'),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.day, t.domain] })],
);

/**
 * The daily visitor and address sketches of each domain merged over aligned blocks of 2^level days (level 1–8,
 * `start` a multiple of 2^level days after 1970-01-01), kept by the rollup: a report merges a few blocks per domain
 * rather than one sketch per day.
 */
export const statDomainBlocks = pgTable(
  'stat_domain_blocks',
  {
    tenant: integer('tenant').notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    level: smallint('level').notNull(),
    start: date('start', { mode: 'string' }).notNull(),
    visitors: empty('visitors'),
    addresses: empty('addresses'),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.level, t.start, t.domain] })],
);

/**
 * Per tenant and day, the rollup's record. When the day's rollups were last recomputed: the id of the rollup
 * transaction (`txid_current()`), so a cached report answer (report-cache.ts) knows whether a day of its period
 * changed since; `dayGen` when its sketches did. And while its rollup fails for a reason a retry will not fix
 * (`error` set): the runner goes on with the other days, retries this one at a slower pace, and the statistics
 * settings screen lists it for an admin to retry; a rollup of the day clears it.
 */
export const statRolledDays = pgTable(
  'stat_rolled_days',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    /** 0 for a day whose rollup never succeeded (a stuck day's row). */
    gen: bigint('gen', { mode: 'number' }).notNull(),
    /** The transaction that last recomputed the day itself; `gen` also moves when a later day rewrote its sums. */
    dayGen: bigint('day_gen', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.day] }),
    index('stat_rolled_days_stuck_idx').on(t.tenant, t.day).where(sql`${t.error} is not null`),
  ],
);

/**
 * Report queries operators made recently, read again by the rollup timer after each run so that their next read finds
 * the answer cached (warm-reads.ts `warmReads`, report-cache.ts): the validated query as canonical JSON, and its day.
 */
export const reportReads = pgTable(
  'report_reads',
  {
    tenant: integer('tenant').notNull(),
    report: varchar('report', { length: 40 }).notNull(),
    query: text('query').notNull(),
    day: day(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.report, t.query] }),
    index('report_reads_read_at_idx').on(t.readAt),
  ],
);

/** The same per hour of the tenant's wall clock. */
export const statDomainHourly = pgTable(
  'stat_domain_hourly',
  {
    tenant: integer('tenant').notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    day: day(),
    hour: smallint('hour').notNull(),
    ...domainFigures,
  },
  (t) => [primaryKey({ columns: [t.tenant, t.domain, t.day, t.hour] })],
);

export const VISIT_DIMENSIONS = ['path', 'referrer', 'device', 'region', 'channel'] as const;

/** A domain's page views by path, referrer host, device, region and channel, per day. */
export const statVisitDaily = pgTable(
  'stat_visit_daily',
  {
    tenant: integer('tenant').notNull(),
    domain: varchar('domain', { length: 253 }).notNull(),
    dimension: varchar('dimension', { length: 16 }).notNull(),
    day: day(),
    key: varchar('key', { length: 512 }).notNull(),
    pageViews: count('page_views'),
    visitors: empty('visitors'),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.domain, t.dimension, t.day, t.key] })],
);

/** Per channel (agent code; '' = none) per day: what the agents' reports read. */
export const statChannelDaily = pgTable(
  'stat_channel_daily',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    channel: varchar('channel', { length: 64 }).notNull(),
    pageViews: count('page_views'),
    plays: count('plays'),
    adImpressions: count('ad_impressions'),
    adClicks: count('ad_clicks'),
    signups: count('signups'),
    recharges: count('recharges'),
    rechargeAmount: numeric('recharge_amount', { precision: 16, scale: 2 }).notNull().default('0'),
    visitors: empty('visitors'),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.day, t.channel] })],
);

/** A visitor's first time per day through a channel (its code, or a domain bound to it): attribution's touches. */
export const statTouches = pgTable(
  'stat_touches',
  {
    tenant: integer('tenant').notNull(),
    visitorHash: bigint('visitor_hash', { mode: 'bigint' }).notNull(),
    day: day(),
    channel: varchar('channel', { length: 64 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'stat_touches_pk', columns: [t.tenant, t.visitorHash, t.day, t.channel] }),
    index('stat_touches_day').on(t.tenant, t.day),
  ],
);

/** Every signup, the channel it was credited to, and its return days (bit k: back k days later, 1–7). */
export const statSignups = pgTable(
  'stat_signups',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    id: varchar('id', { length: 64 }).notNull(),
    channel: varchar('channel', { length: 64 }).notNull(),
    visitorHash: bigint('visitor_hash', { mode: 'bigint' }).notNull(),
    addressHash: bigint('address_hash', { mode: 'bigint' }).notNull(),
    active: smallint('active').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'stat_signups_pk', columns: [t.tenant, t.day, t.id] }),
    index('stat_signups_visitor').on(t.tenant, t.visitorHash),
  ],
);

/** Each paying visitor once: the day of the first recharge and the channel it was credited to. */
export const statPayers = pgTable(
  'stat_payers',
  {
    tenant: integer('tenant').notNull(),
    visitorHash: bigint('visitor_hash', { mode: 'bigint' }).notNull(),
    day: day(),
    channel: varchar('channel', { length: 64 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'stat_payers_pk', columns: [t.tenant, t.visitorHash] }),
    index('stat_payers_day').on(t.tenant, t.day),
  ],
);

/** The figures attributed to a channel (ATTRIBUTED_SUMS): per day, per block of days, per day over all channels. */
const attributedFigures = () => ({
  pageViews: count('page_views'),
  signups: count('signups'),
  payers: count('payers'),
  recharges: count('recharges'),
  rechargeAmount: numeric('recharge_amount', { precision: 16, scale: 2 }).notNull().default('0'),
  sharedAddress: count('shared_address'),
  sharedDevice: count('shared_device'),
  idle: count('idle'),
  retained: count('retained'),
});

/** Per channel per day: its traffic and the conversions credited to it, with the quality counts of its signups. */
export const statAttributedDaily = pgTable(
  'stat_attributed_daily',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    channel: varchar('channel', { length: 64 }).notNull(),
    ...attributedFigures(),
    visitors: empty('visitors'),
    addresses: empty('addresses'),
  },
  (t) => [
    primaryKey({ name: 'stat_attributed_daily_pk', columns: [t.tenant, t.day, t.channel] }),
    index('stat_attributed_daily_channel').on(t.tenant, t.channel, t.day),
  ],
);

/**
 * The figures of `stat_attributed_daily` per channel summed over aligned blocks of 2^level days (level 1–8, `start` a
 * multiple of 2^level days after 1970-01-01), kept by the rollup: the agents' stat reads a few blocks per channel
 * rather than one row per day (attributed-blocks.ts).
 */
export const statAttributedBlocks = pgTable(
  'stat_attributed_blocks',
  {
    tenant: integer('tenant').notNull(),
    channel: varchar('channel', { length: 64 }).notNull(),
    level: smallint('level').notNull(),
    start: date('start', { mode: 'string' }).notNull(),
    ...attributedFigures(),
  },
  (t) => [
    primaryKey({ name: 'stat_attributed_blocks_pk', columns: [t.tenant, t.level, t.start, t.channel] }),
  ],
);

/** The sketches of `stat_attributed_daily` merged over the same blocks (apart from the sums). */
export const statAttributedBlockSketches = pgTable(
  'stat_attributed_block_sketches',
  {
    tenant: integer('tenant').notNull(),
    channel: varchar('channel', { length: 64 }).notNull(),
    level: smallint('level').notNull(),
    start: date('start', { mode: 'string' }).notNull(),
    visitors: empty('visitors'),
    addresses: empty('addresses'),
  },
  (t) => [
    primaryKey({
      name: 'stat_attributed_block_sketches_pk',
      columns: [t.tenant, t.level, t.start, t.channel],
    }),
  ],
);

/** Per day: `stat_attributed_daily` summed over every channel but '' (the agents' daily series). */
export const statAttributedTotals = pgTable(
  'stat_attributed_totals',
  {
    tenant: integer('tenant').notNull(),
    day: day(),
    pageViews: count('page_views'),
    signups: count('signups'),
    payers: count('payers'),
    recharges: count('recharges'),
    rechargeAmount: numeric('recharge_amount', { precision: 16, scale: 2 }).notNull().default('0'),
  },
  (t) => [primaryKey({ name: 'stat_attributed_totals_pk', columns: [t.tenant, t.day] })],
);
