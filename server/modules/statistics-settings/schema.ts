import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the content site's event collector does, per tenant (one JSON document, its fields checked by the module):
 * which events it collects, the sampling rate, how long raw events are kept, third-party snippets per platform.
 */
export const statisticsSettings = pgTable('statistics_settings', {
  tenant: integer('tenant').primaryKey(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});
