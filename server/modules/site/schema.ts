import { sql } from 'drizzle-orm';
import { integer, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

/**
 * What the public site API needs per tenant, in one small row: the site key that names the tenant, and what its
 * ETag is made of. `site_version` is bumped by every write to anything the site API answers (settings, notices,
 * promotion apps, statistics settings), so a conditional request is one read of this row. `boundaries` are the
 * future instants at which a notice starts or ends (as of the last notice write): crossing one changes what is
 * live without any write, so the last one crossed is part of the ETag too.
 */
export const siteState = pgTable(
  'site_state',
  {
    tenant: integer('tenant').primaryKey(),
    siteKey: varchar('site_key', { length: 64 }),
    keyUpdatedAt: timestamp('key_updated_at', { withTimezone: true }),
    siteVersion: integer('site_version').notNull().default(0),
    boundaries: timestamp('boundaries', { withTimezone: true })
      .array()
      .notNull()
      .default(sql`'{}'::timestamptz[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('site_state_site_key').on(t.siteKey)],
);
