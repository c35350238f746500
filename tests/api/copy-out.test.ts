import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sqlStateOf } from '../../server/core/sql-state';
import { binaryRows, eachRowWithBytes, inlined, rowsWithBytes } from '../../server/db/copy-out';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { freshDatabase, onPostgres } from './harness';

/**
 * A query whose answer is mostly `bytea` (a report's sketches) is read through a binary COPY on PostgreSQL, where
 * node-postgres would take each value in as hex text: the same rows as the statement gives, whatever its parameters.
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.close());

const HOSTILE = ["it's", 'a\\b', "'; drop table x; --", '$1 and $2', '爱情 🎬', 'line\nbreak', ''];

test('rows read with their bytes equal the statement’s, text as strings and bytea as bytes, whatever the parameters', async () => {
  const big = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
  await database.db.execute(sql`create table copy_probe (k text, n bigint, b bytea)`);
  await database.db.execute(
    sql`insert into copy_probe values ('a', 1, ${big}), ('b', -2, ''::bytea), ('c', null, null)`,
  );
  for (const word of HOSTILE) {
    const rows = await rowsWithBytes(
      database.db,
      sql`select k || ${word} as key, n - ${-1} as n, b as sk from copy_probe where k <> ${word} or ${true} order by k`,
      { key: 'text', n: 'text', sk: 'bytea' },
    );
    expect(rows.map((r) => [r.key, r.n])).toEqual([
      [`a${word}`, '2'],
      [`b${word}`, '-1'],
      [`c${word}`, null],
    ]);
    expect(Buffer.from(rows[0].sk as Uint8Array).equals(Buffer.from(big))).toBe(true);
    expect([...(rows[1].sk as Uint8Array)]).toEqual([]);
    expect(rows[2].sk).toBe(null);
  }
  // a statement that fails rejects with the database's error, and the connection serves the next read
  const failed = await rowsWithBytes(database.db, sql`select 1/${0} as key`, { key: 'text' }).catch((e) => e);
  expect(sqlStateOf(failed)).toBe('22012');
  const after = await rowsWithBytes(database.db, sql`select ${'x'} as key`, { key: 'text' });
  expect(after).toEqual([{ key: 'x' }]);
  expect(rowsOf(await database.db.execute(sql`select count(*)::int as n from copy_probe`))).toEqual([
    { n: 3 },
  ]);
});

test.skipIf(!onPostgres)('on PostgreSQL the rows come through a binary COPY', async () => {
  const rows = await rowsWithBytes(database.db, sql`select ${'copy-probe-marker'} as key`, { key: 'text' });
  expect(rows).toEqual([{ key: 'copy-probe-marker' }]);
  // The pool's connection that read it is idle, its last statement shown to another connection.
  const other = new pg.Client({ connectionString: (database as { url?: string }).url });
  await other.connect();
  try {
    const seen = await other.query(
      "select query from pg_stat_activity where datname = current_database() and query like 'copy (select \"key\"::text from (select ''copy-probe-marker''%'",
    );
    expect(seen.rows.length).toBe(1);
  } finally {
    await other.end();
  }
});

test('rows handed over one by one, in order: a value kept is a copy, whatever is written after', async () => {
  // The first row's bytes kept (copied) and written over at every row after: no other row's bytes change.
  const seen: [unknown, number[]][] = [];
  let kept: Uint8Array | undefined;
  await eachRowWithBytes(
    database.db,
    sql`select i::text as key, decode(repeat(lpad(to_hex(i), 2, '0'), 20000), 'hex') as sk from generate_series(1, 200) i`,
    { key: 'text', sk: 'bytea' },
    (r) => {
      seen.push([r.key, [...new Set(r.sk as Uint8Array)]]);
      if (kept) kept.fill(0xee);
      else kept = (r.sk as Uint8Array).slice();
    },
  );
  expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => [String(i + 1), [i + 1]]));
  expect(await rowsWithBytes(database.db, sql`select ${'y'} as key`, { key: 'text' })).toEqual([
    { key: 'y' },
  ]);
});

test('read as it is (in a transaction: no COPY), bytes come as plain arrays, as the COPY gives them', async () => {
  await database.db.transaction(async (tx) => {
    const [row] = await rowsWithBytes(tx, sql`select ${'k'} as key, '\\x0102'::bytea as sk`, {
      key: 'text',
      sk: 'bytea',
    });
    expect(row.key).toBe('k');
    // a Buffer's `slice` is a view: a caller's copy would not be one
    expect(Object.getPrototypeOf(row.sk)).toBe(Uint8Array.prototype);
    expect([...(row.sk as Uint8Array)]).toEqual([1, 2]);
  });
});

test('a parameter is written as a literal once: a value that looks like a placeholder stays text', () => {
  expect(inlined('select $1, $2, $3, $4, $5', ['$2', -3, 2n, null, "o'k"])).toBe(
    "select '$2', (-3), 2, null, 'o''k'",
  );
  expect(inlined('select $1', [new Date(0)])).toBe(null);
  expect(inlined('select $1', [Number.NaN])).toBe(null);
});

test("a binary COPY's data is read whole or refused, never half", () => {
  const head = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];
  const row = [0, 2, 0, 0, 0, 1, 0x41, 0xff, 0xff, 0xff, 0xff];
  const row2 = [0, 2, 0, 0, 0, 2, 0xc3, 0xa9, 0, 0, 0, 3, 7, 8, 9];
  const end = [0xff, 0xff];
  const cols = { key: 'text', sk: 'bytea' } as const;
  const all = Uint8Array.from([...head, ...row, ...row2, ...end]);
  const rows = [
    { key: 'A', sk: null },
    { key: 'é', sk: Uint8Array.from([7, 8, 9]) },
  ];
  // split anywhere across messages, once or twice: a value straddling them is read whole
  for (let i = 0; i <= all.length; i++)
    for (let j = i; j <= all.length; j += 5)
      expect(
        binaryRows([all.subarray(0, i), all.subarray(i, j), all.subarray(j)], ['key', 'sk'], cols),
      ).toEqual(rows);
  // the driver's messages are Buffers whose bytes it reuses: the rows hold copies
  const messages = [Buffer.from(all.subarray(0, 30)), Buffer.from(all.subarray(30))];
  const read = binaryRows(messages, ['key', 'sk'], cols);
  for (const m of messages) m.fill(0xee);
  expect(read).toEqual(rows);
  expect(() => binaryRows([all.subarray(0, all.length - 3)], ['key', 'sk'], cols)).toThrow(/cut short/);
  expect(() => binaryRows([Uint8Array.from([1, 2, 3])], ['key', 'sk'], cols)).toThrow(/signature/);
  expect(() => binaryRows([all], ['key'], { key: 'text' })).toThrow(/2 fields for 1/);
});
