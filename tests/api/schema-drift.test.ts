import { getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import { schema } from '../../server/db/schema';
import type { Database } from '../../server/db/types';
import { freshDatabase } from './harness';

/**
 * Migrations are SQL files (some written by hand); the code queries through the Drizzle declarations. This checks
 * that the migrated database has every declared table, column (with its nullability and default presence) and
 * index, so a migration that drifts from the declarations fails here rather than in production.
 */

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
  await migrate(database.db); // PostgreSQL's fresh database starts empty; on PGlite this finds nothing to do
});
afterAll(() => database?.close());

const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));

test('the schema barrel declares tables', () => {
  expect(tables.length).toBeGreaterThan(5);
});

test('every declared column exists with the declared nullability', async () => {
  const rows = rowsOf<{ table_name: string; column_name: string; is_nullable: string }>(
    await database.db.execute(
      sql`select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`,
    ),
  );
  const actual = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.is_nullable === 'YES']));
  const missing: string[] = [];
  const nullability: string[] = [];
  for (const table of tables) {
    const { name, columns } = getTableConfig(table);
    for (const column of columns) {
      const key = `${name}.${column.name}`;
      if (!actual.has(key)) missing.push(key);
      else if (actual.get(key) !== !column.notNull) nullability.push(`${key} nullable=${actual.get(key)}`);
    }
  }
  expect(missing).toEqual([]);
  expect(nullability).toEqual([]);
});

test('every declared index exists', async () => {
  const rows = rowsOf<{ indexname: string }>(
    await database.db.execute(sql`select indexname from pg_indexes where schemaname = 'public'`),
  );
  const actual = new Set(rows.map((r) => r.indexname));
  const missing: string[] = [];
  for (const table of tables) {
    for (const index of getTableConfig(table).indexes) {
      const name = index.config.name;
      if (name && !actual.has(name)) missing.push(`${getTableName(table)}: ${name}`);
    }
  }
  expect(missing).toEqual([]);
});
