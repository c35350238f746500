import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

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
    /** The site's server secret, encrypted with the server's key (secret.ts); null until one is made. */
    secretCipher: text('secret_cipher'),
    secretUpdatedAt: timestamp('secret_updated_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('site_state_site_key').on(t.siteKey)],
);

/** Signatures accepted inside the replay window, so that a signed request is accepted once by every instance. */
export const siteSignatures = pgTable(
  'site_signatures',
  {
    tenant: integer('tenant').notNull(),
    signature: varchar('signature', { length: 64 }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'site_signatures_pkey', columns: [t.tenant, t.signature] }),
    index('site_signatures_seen_at').on(t.seenAt),
  ],
);
