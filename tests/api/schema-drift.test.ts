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

/** Tables the migrations make that no module declares, each with why. */
const UNDECLARED_TABLES: Record<string, string> = {
  _migrations: 'the migrator’s own record of what it applied (server/db/migrate.ts)',
};

/** A declared column's type as PostgreSQL names it (`udt_name`, with a varchar's length and a numeric's scale). */
function declaredType(sqlType: string): string {
  const t = sqlType.toLowerCase().replace(/\s+/g, ' ').trim();
  if (t.endsWith('[]')) return `_${declaredType(t.slice(0, -2))}`;
  const named: Record<string, string> = {
    serial: 'int4',
    bigserial: 'int8',
    integer: 'int4',
    bigint: 'int8',
    smallint: 'int2',
    boolean: 'bool',
    'timestamp with time zone': 'timestamptz',
    'timestamp without time zone': 'timestamp',
    timestamp: 'timestamp',
    real: 'float4',
    'double precision': 'float8',
  };
  if (named[t]) return named[t];
  const sized = t.match(/^(varchar|numeric)\((\d+)(?:, ?(\d+))?\)$/);
  if (sized)
    return sized[3] === undefined ? `${sized[1]}(${sized[2]})` : `${sized[1]}(${sized[2]},${sized[3]})`;
  return t;
}

test('the migrated database has no column the declarations leave out, and every column has its declared type', async () => {
  const rows = rowsOf<{
    table_name: string;
    column_name: string;
    udt_name: string;
    character_maximum_length: number | null;
    numeric_precision: number | null;
    numeric_scale: number | null;
  }>(
    await database.db.execute(sql`
      select c.table_name, c.column_name, c.udt_name, c.character_maximum_length, c.numeric_precision, c.numeric_scale
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.table_name not in (select child.relname from pg_inherits join pg_class child on child.oid = inhrelid)`),
  );
  const declared = new Map<string, string>();
  for (const table of tables) {
    const { name, columns } = getTableConfig(table);
    for (const column of columns) declared.set(`${name}.${column.name}`, declaredType(column.getSQLType()));
  }
  const actualType = (r: (typeof rows)[number]) => {
    if (r.udt_name === 'varchar' && r.character_maximum_length != null)
      return `varchar(${r.character_maximum_length})`;
    if (r.udt_name === 'numeric' && r.numeric_precision != null)
      return `numeric(${r.numeric_precision},${r.numeric_scale ?? 0})`;
    return r.udt_name;
  };
  const undeclared = rows
    .filter((r) => !(r.table_name in UNDECLARED_TABLES) && !declared.has(`${r.table_name}.${r.column_name}`))
    .map((r) => `${r.table_name}.${r.column_name}`);
  const differ = rows
    .filter((r) => declared.has(`${r.table_name}.${r.column_name}`))
    .filter((r) => declared.get(`${r.table_name}.${r.column_name}`) !== actualType(r))
    .map(
      (r) =>
        `${r.table_name}.${r.column_name}: ${actualType(r)}, declared ${declared.get(`${r.table_name}.${r.column_name}`)}`,
    );
  expect(undeclared).toEqual([]);
  expect(differ).toEqual([]);
  // a control: the walk reads the columns and their types
  expect(rows.length).toBeGreaterThan(declared.size / 2);
  expect(declaredType('varchar(16)')).toBe('varchar(16)');
  expect(declaredType('timestamp with time zone[]')).toBe('_timestamptz');
});
