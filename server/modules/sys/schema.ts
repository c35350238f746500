import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';

/** Per-tenant system settings (SPEC.md §3): imgdomain, platforms and any other field saved, as one JSON document. */
export const systemSettings = pgTable('system_settings', {
  tenant: integer('tenant').primaryKey(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});
