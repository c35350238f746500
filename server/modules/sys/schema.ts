import { bigint, index, integer, jsonb, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';

/** Per-tenant system settings (SPEC.md §3): imgdomain, platforms and any other field saved, as one JSON document. */
export const systemSettings = pgTable('system_settings', {
  tenant: integer('tenant').primaryKey(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});

/**
 * The MacCMS move (server/node/maccms/): which of our rows each MacCMS row became, per tenant and kind ('vod',
 * 'user', …), and a digest of what it was written from, so a rerun updates only what changed.
 */
export const maccmsIds = pgTable(
  'maccms_ids',
  {
    tenant: integer('tenant').notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    maccmsId: bigint('maccms_id', { mode: 'number' }).notNull(),
    ourId: integer('our_id').notNull(),
    digest: varchar('digest', { length: 40 }).notNull().default(''),
    movedAt: timestamp('moved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.kind, t.maccmsId] }),
    index('maccms_ids_ours').on(t.kind, t.ourId),
  ],
);
