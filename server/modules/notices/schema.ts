import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

export const NOTICE_TYPES = ['marquee', 'popup'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/**
 * Notices the content site shows: a scrolling marquee line (plain text) or a pop-up (limited rich text, sanitized on
 * the way in), on some platforms, from `start_at` until `end_at` (none: until disabled). Their state (scheduled,
 * live, expired, disabled) is derived from the time and `enabled`, never stored.
 */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    type: varchar('type', { length: 8 }).$type<NoticeType>().notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    content: text('content').notNull().default(''),
    platforms: integer('platforms').array().notNull().default(sql`'{}'::integer[]`),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notices_tenant_start').on(t.tenant, t.startAt),
    index('notices_platforms').using('gin', t.platforms),
    check('notices_end_after_start', sql`${t.endAt} is null or ${t.endAt} > ${t.startAt}`),
  ],
);
