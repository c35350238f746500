import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { arrayLiteral } from '../../server/db/array-literal';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { freshDatabase } from './harness';

/** The array literal the event ingestion sends reads back as the same values on both databases. */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.close());

const back = async (values: (string | null)[]) =>
  rowsOf<{ a: (string | null)[] }>(
    await database.db.execute(sql`select ${sql.param(arrayLiteral(values))}::text[] as a`),
  )[0].a;

test('strings that mean something in a literal stay themselves', async () => {
  const tricky = [
    '',
    'NULL',
    'null',
    'a,b',
    '{x}',
    '"',
    '\\',
    '\\"',
    ' lead',
    'trail ',
    'line\nbreak',
    '中文',
    '😀',
    'a b',
  ];
  expect(await back([...tricky, null])).toEqual([...tricky, null]);
  const nums = rowsOf<{ a: number[] }>(
    await database.db.execute(sql`select ${sql.param(arrayLiteral([1, -2, 0, null]))}::int[] as a`),
  )[0].a;
  expect(nums).toEqual([1, -2, 0, null]);
});

test('any storable strings read back unchanged', async () => {
  // No U+0000 (PostgreSQL text cannot hold it; the input guard refuses it before any route).
  const storable = fc.string({ unit: 'binary' }).filter((s) => !s.includes('\u0000'));
  await fc.assert(
    fc.asyncProperty(fc.array(fc.option(storable, { nil: null }), { maxLength: 20 }), async (values) => {
      expect(await back(values)).toEqual(values);
    }),
    { numRuns: 100 },
  );
});
