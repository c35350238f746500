import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';

export const APP_SYSTEMS = ['android', 'ios', 'desktop'] as const;
export type AppSystem = (typeof APP_SYSTEMS)[number];

/**
 * The browsers and apps the content site promotes: a name, an icon (an encrypted upload), the download or landing
 * URL, the device system it is for (`os`: Android, iOS, desktop), the content platforms that show it, its position
 * (`sort`, ascending) and whether it is shown.
 */
export const promotionApps = pgTable(
  'promotion_apps',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    icon: varchar('icon', { length: 512 }).notNull().default(''),
    url: varchar('url', { length: 1024 }).notNull(),
    os: varchar('os', { length: 8 }).$type<AppSystem>().notNull(),
    platforms: integer('platforms').array().notNull().default(sql`'{}'::integer[]`),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('promotion_apps_tenant_sort').on(t.tenant, t.sort),
    index('promotion_apps_platforms').using('gin', t.platforms),
  ],
);
