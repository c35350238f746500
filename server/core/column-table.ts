import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * Columns (categories) of a content kind form a tree: a name unique among its siblings, a sort order, a visible
 * flag and `item_count`, the items filed under it whatever their status (kept by statement triggers on the items'
 * table, written in the section's migration). Movies and novels each declare theirs with this.
 */
export function columnTreeTable<N extends string>(name: N) {
  const table = pgTable(
    name,
    {
      id: serial('id').primaryKey(),
      parentId: integer('parent_id').references((): AnyPgColumn => table.id),
      name: varchar('name', { length: 64 }).notNull(),
      sort: integer('sort').notNull().default(0),
      visible: boolean('visible').notNull().default(true),
      itemCount: integer('item_count').notNull().default(0),
      version: integer('version').notNull().default(1),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [
      unique(`${name}_parent_name`).on(t.parentId, t.name).nullsNotDistinct(),
      index(`${name}_parent`).on(t.parentId, t.sort),
    ],
  );
  return table;
}

export type ColumnTable = ReturnType<typeof columnTreeTable<string>>;
