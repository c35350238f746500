import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eachRowWithBytes } from '../../server/db/copy-out';
import type { Database } from '../../server/db/types';
import { freshDatabase, onPostgres } from './harness';

/**
 * `eachRowWithBytes` (server/db/copy-out.ts): the reports and the agents' stat read thousands of sketches through it.
 * Every row in order on both drivers; on PostgreSQL each row as it arrives; a throw from the caller rejects the read
 * and costs no connection.
 */

/** `eachRowWithBytes` with every column read as text. */
const eachRow = (
  db: Database['db'],
  query: SQL,
  names: string[],
  onRow: (r: Record<string, unknown>) => void,
) => eachRowWithBytes(db, query, Object.fromEntries(names.map((n) => [n, 'text' as const])), onRow);

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.close());

test('every row, in order, with its columns', async () => {
  const rows: unknown[] = [];
  await eachRow(
    database.db,
    sql`select g, 'row ' || g as label from generate_series(1, ${2500}::int) g order by g`,
    ['g', 'label'],
    (r) => rows.push([Number(r.g), r.label]),
  );
  expect(rows).toHaveLength(2500);
  expect(rows[0]).toEqual([1, 'row 1']);
  expect(rows[2499]).toEqual([2500, 'row 2500']);
  await eachRow(database.db, sql`select 1 as one where false`, ['one'], () => rows.push('none'));
  expect(rows).toHaveLength(2500);
});

test.runIf(onPostgres)('on PostgreSQL a row is handed over before the query has ended', async () => {
  // Two large rows (each flushed to the client by the next), then one that the database produces after a pause.
  const handed: number[] = [];
  const t0 = performance.now();
  await eachRow(
    database.db,
    sql`select g, repeat('x', 300000) as pad, case when g = 3 then pg_sleep(1.5) end as pause
      from generate_series(1, 3) g`,
    ['g', 'pad', 'pause'],
    (r) => {
      if (Number(r.g) === 1) handed.push(performance.now() - t0);
    },
  );
  const ended = performance.now() - t0;
  expect(handed).toHaveLength(1);
  // Read whole, the first row would be handed over after the pause, with the others.
  expect(ended - handed[0]).toBeGreaterThan(1000);
});

test('a throw from the caller rejects the read, and the database is used again at once', async () => {
  const seen: number[] = [];
  const read = eachRow(database.db, sql`select g from generate_series(1, 50) g`, ['g'], (r) => {
    seen.push(Number(r.g));
    if (Number(r.g) === 3) throw new Error('stop here');
  });
  await expect(read).rejects.toThrow('stop here');
  expect(seen).toEqual([1, 2, 3]); // nothing handed over after the throw
  const failed = await eachRow(
    database.db,
    sql`select 1 / (g - 2) as x from generate_series(1, 3) g`,
    ['x'],
    () => {},
  ).then(
    () => null,
    (err: unknown) => err,
  );
  // The database's error, as the driver gives it (Drizzle wraps it on PGlite: its cause).
  const messages: string[] = [];
  for (let e = failed as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    messages.push(String(e.message));
  expect(messages.join(' | ')).toMatch(/division by zero/);
  // Every connection of the pool is still usable (none lost to the failed read).
  const again = await Promise.all(
    Array.from({ length: 12 }, () => {
      const got: number[] = [];
      return eachRow(database.db, sql`select 7 as n`, ['n'], (r) => got.push(Number(r.n))).then(() => got);
    }),
  );
  expect(again.flat()).toEqual(Array(12).fill(7));
  if (onPostgres) {
    // No client of the pool is left checked out by the failed reads.
    const pool = (database.db as unknown as { $client: { totalCount: number; idleCount: number } }).$client;
    expect(pool.idleCount).toBe(pool.totalCount);
  }
});
