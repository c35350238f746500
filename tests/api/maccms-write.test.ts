import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database, Executor } from '../../server/db/types';
import { copyRows, intsOf } from '../../server/node/maccms/write';
import { freshDatabase } from './harness';

/**
 * The MacCMS move's COPY (write.ts copyRows), on the driver of the project that runs it (PGlite under `api`,
 * node-postgres under `api-pg`): inside the batch's transaction, its text exactly as given, and gone with a rollback.
 */
let d: Database;
beforeAll(async () => {
  d = await freshDatabase();
  await d.db.execute(
    sql`create table copy_probe (id int, name text, path varchar(64), ok boolean, at timestamptz)`,
  );
});
afterAll(() => d.close());

const HOSTILE = ['tab\there', 'line\nend', 'cr\rhere', 'back\\slash', '\\N', '', '第1集 ＡＢ😀', 'quote"\'s'];

it('writes every text as it is (tabs, line ends, backslashes, \\N, emoji), nulls, booleans and times', async () => {
  const at = new Date('2026-06-01T08:00:00Z');
  await d.db.transaction(async (tx) => {
    const how = await copyRows(
      tx as unknown as Executor,
      'copy_probe',
      [
        ['id', 'int'],
        ['name', 'text'],
        ['path', 'text'],
        ['ok', 'bool'],
        ['at', 'timestamptz'],
      ],
      HOSTILE.map((h, i) => [i, h, i % 2 ? null : h.slice(0, 64), i % 2 === 0, i ? at.toISOString() : at]),
    );
    expect(how).toBe('copy');
    // In the transaction: what a later statement of the batch reads.
    expect(rowsOf(await tx.execute(sql`select count(*)::int as n from copy_probe`))[0]).toEqual({
      n: HOSTILE.length,
    });
  });
  const rows = rowsOf<{ id: number; name: string; path: string | null; ok: boolean; at: unknown }>(
    await d.db.execute(sql`select id, name, path, ok, at from copy_probe order by id`),
  );
  expect(rows.map((r) => r.name)).toEqual(HOSTILE);
  expect(rows.map((r) => r.path)).toEqual(HOSTILE.map((h, i) => (i % 2 ? null : h)));
  expect(rows.map((r) => r.ok)).toEqual(HOSTILE.map((_, i) => i % 2 === 0));
  expect(rows.every((r) => new Date(r.at as string).getTime() === at.getTime())).toBe(true);
});

it('writes text and integer arrays by COPY: quotes, backslashes, braces, commas, empty and null arrays', async () => {
  await d.db.execute(sql`create table copy_arrays (id int, tags text[], ids integer[])`);
  const arrays = [
    ['a', 'b'],
    ['quote"d', 'back\\slash', '{brace}', 'com,ma', 'NULL', ''],
    [],
    ['tab\tline\n😀'],
    null,
  ];
  await d.db.transaction(async (tx) => {
    const how = await copyRows(
      tx as unknown as Executor,
      'copy_arrays',
      [
        ['id', 'int'],
        ['tags', 'texts'],
        ['ids', 'ints'],
      ],
      arrays.map((a, i) => [i, a, i === 4 ? null : intsOf([i, i + 1])]),
    );
    expect(how).toBe('copy');
  });
  const rows = rowsOf<{ tags: string[] | null; ids: number[] | null }>(
    await d.db.execute(sql`select tags, ids from copy_arrays order by id`),
  );
  expect(rows.map((r) => r.tags)).toEqual(arrays);
  expect(rows.map((r) => r.ids)).toEqual([[0, 1], [1, 2], [2, 3], [3, 4], null]);
});

it('a rolled-back transaction keeps none of its COPY', async () => {
  await expect(
    d.db.transaction(async (tx) => {
      await copyRows(tx as unknown as Executor, 'copy_probe', [['id', 'int']], [[100], [101]]);
      throw new Error('stop');
    }),
  ).rejects.toThrow('stop');
  expect(
    rowsOf(await d.db.execute(sql`select count(*)::int as n from copy_probe where id >= 100`))[0],
  ).toEqual({ n: 0 });
});
