import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type { AdDevice, AdPricing, AdType } from '../../../common/ad';

const stamps = () => ({
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The ads a replacement was run over: the selected ids, or the list's filter (`{}`: every ad) with the names of the
 * advertiser and position it named, as they were then.
 */
export type AdChangeScope =
  | { ids: number[] }
  | { filter: Record<string, string | number>; names: { advertiserId?: string; positionId?: string } };

/** Who buys ads: a name (unique per tenant), a contact, whether they are active, notes. */
export const adAdvertisers = pgTable(
  'ad_advertisers',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    contact: varchar('contact', { length: 128 }).notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    notes: varchar('notes', { length: 500 }).notNull().default(''),
    ...stamps(),
  },
  (t) => [uniqueIndex('ad_advertisers_tenant_name').on(t.tenant, t.name)],
);

/**
 * A place on the site that shows ads: the key the site asks for, its size, the kind of material, the device, how
 * its live materials rotate, and the material shown when nothing is booked (`fallback_ad_id`, one of its own).
 */
export const adPositions = pgTable(
  'ad_positions',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    key: varchar('key', { length: 64 }).notNull(),
    width: integer('width').notNull().default(0),
    height: integer('height').notNull().default(0),
    type: varchar('type', { length: 8 }).$type<AdType>().notNull(),
    device: varchar('device', { length: 8 }).$type<AdDevice>().notNull().default('all'),
    rotation: varchar('rotation', { length: 8 })
      .$type<'weighted' | 'ordered'>()
      .notNull()
      .default('weighted'),
    fallbackAdId: integer('fallback_ad_id'),
    enabled: boolean('enabled').notNull().default(true),
    /** Moves only when `fallback_ad_id` does (a trigger): what the reports' kept sums depend on. */
    reportVersion: integer('report_version').notNull().default(1),
    ...stamps(),
  },
  (t) => [uniqueIndex('ad_positions_tenant_key').on(t.tenant, t.key)],
);

/** A material: what is shown where, to whom, when, and how it is paid. */
export const ads = pgTable(
  'ads',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    type: varchar('type', { length: 8 }).$type<AdType>().notNull(),
    /** An uploaded (encrypted) image path or an http(s) URL: the picture, or the video of a pre-roll. */
    creative: varchar('creative', { length: 1024 }).notNull().default(''),
    /** The words of a text ad. */
    body: varchar('body', { length: 500 }).notNull().default(''),
    landingUrl: varchar('landing_url', { length: 1024 }).notNull(),
    positionId: integer('position_id')
      .notNull()
      .references(() => adPositions.id),
    advertiserId: integer('advertiser_id').references(() => adAdvertisers.id),
    platforms: integer('platforms').array().notNull().default(sql`'{}'::integer[]`),
    device: varchar('device', { length: 8 }).$type<AdDevice>().notNull().default('all'),
    weight: integer('weight').notNull().default(1),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }),
    pricing: varchar('pricing', { length: 8 }).$type<AdPricing>().notNull(),
    price: numeric('price', { precision: 12, scale: 2 }).notNull().default('0'),
    enabled: boolean('enabled').notNull().default(true),
    /**
     * Moves only when the position, advertiser, pricing, price, start or end does (a trigger): what
     * the reports' kept sums depend on (`adsStamp`), where `version` moves with every edit.
     */
    reportVersion: integer('report_version').notNull().default(1),
    ...stamps(),
  },
  (t) => [
    index('ads_tenant_id').on(t.tenant, t.id),
    index('ads_tenant_position').on(t.tenant, t.positionId, t.id),
    index('ads_tenant_advertiser').on(t.tenant, t.advertiserId, t.id),
    index('ads_tenant_end').on(t.tenant, t.endAt),
    index('ads_tenant_position_end').on(t.tenant, t.positionId, t.endAt),
    index('ads_platforms').using('gin', t.platforms),
    // "title contains" and "landing URL contains"
    index('ads_title_grams').using('gin', sql`zg_title_grams(${t.title})`),
    index('ads_landing_grams').using('gin', sql`zg_title_grams(${t.landingUrl})`),
  ],
);

/** One batch replacement of landing links: who, when, what, how many; rolled back once at most. */
export const adChangeSets = pgTable(
  'ad_change_sets',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    operatorId: integer('operator_id'),
    operatorName: varchar('operator_name', { length: 64 }).notNull().default(''),
    mode: varchar('mode', { length: 8 }).$type<'text' | 'pattern'>().notNull(),
    find: varchar('find', { length: 200 }).notNull(),
    replace: varchar('replace', { length: 1024 }).notNull(),
    count: integer('count').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    rolledBackAt: timestamp('rolled_back_at', { withTimezone: true }),
    rolledBackBy: varchar('rolled_back_by', { length: 64 }),
    /** The ads it was run over (null on sets made before the column existed). */
    scope: jsonb('scope').$type<AdChangeScope>(),
  },
  (t) => [index('ad_change_sets_tenant').on(t.tenant, t.id)],
);

/** Each ad a change set touched: its link before and after, and the version the change gave it. */
export const adChangeRows = pgTable(
  'ad_change_rows',
  {
    changeSetId: integer('change_set_id')
      .notNull()
      .references(() => adChangeSets.id, { onDelete: 'cascade' }),
    adId: integer('ad_id').notNull(),
    before: text('before').notNull(),
    after: text('after').notNull(),
    versionAfter: integer('version_after').notNull(),
  },
  (t) => [primaryKey({ columns: [t.changeSetId, t.adId] })],
);

/**
 * The future instants at which an ad starts or ends, per tenant (as of the last ad write): crossing one changes the
 * site's live materials without a write, so the last one crossed is part of the ads answer's ETag.
 */
export const adSiteState = pgTable('ad_site_state', {
  tenant: integer('tenant').primaryKey(),
  boundaries: timestamp('boundaries', { withTimezone: true })
    .array()
    .notNull()
    .default(sql`'{}'::timestamptz[]`),
});

/**
 * What the ads reports' kept answers depend on besides the rollups, per tenant (statement triggers
 * on the three tables): `names` moves with every write to the materials, positions and advertisers; `figures` when
 * one is created or deleted, or a material's or position's `reportVersion` moves (what the sums are computed from).
 */
export const adReportStamps = pgTable('ad_report_stamps', {
  tenant: integer('tenant').primaryKey(),
  figures: bigint('figures', { mode: 'number' }).notNull().default(0),
  names: bigint('names', { mode: 'number' }).notNull().default(0),
});
