import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import type { Region } from '../../../common/actresses';

/**
 * A performer's profile. `search_grams` is generated from the name and every alias (`zg_name_grams`, migration
 * 0006: each name's characters and bigrams, lower-cased, never across two names) and GIN-indexed, so a
 * two-character Chinese or a Latin search over names and aliases is index-served. `tags` are free-text labels
 * (GIN-indexed for the tag filter). `movie_count` is the number of linked movies, kept by statement triggers on
 * `movie_actresses`, so links written by any route, a cascade or a seed keep it exact.
 */
export const actresses = pgTable(
  'actresses',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    searchGrams: text('search_grams').array().notNull().generatedAlwaysAs(sql`zg_name_grams(name, aliases)`),
    avatar: varchar('avatar', { length: 512 }).notNull().default(''),
    birthday: date('birthday', { mode: 'string' }),
    height: integer('height'),
    region: varchar('region', { length: 16 }).$type<Region>(),
    debutYear: integer('debut_year'),
    biography: text('biography').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    visible: boolean('visible').notNull().default(true),
    sortWeight: integer('sort_weight').notNull().default(0),
    movieCount: integer('movie_count').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('actresses_search_grams').using('gin', t.searchGrams),
    index('actresses_tags').using('gin', t.tags),
    index('actresses_movie_count').on(t.movieCount),
    index('actresses_created').on(t.createdAt),
    index('actresses_updated').on(t.updatedAt.desc(), t.id.desc()),
    index('actresses_sort_weight').on(t.sortWeight),
    index('actresses_name').on(t.name),
    index('actresses_region').on(t.region),
    index('actresses_debut_year').on(t.debutYear),
  ],
);
