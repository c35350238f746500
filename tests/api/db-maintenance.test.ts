import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { analyzeStale } from '../../server/db/maintenance';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { startRollupTimer } from '../../server/node/rollup';
import { freshDatabase } from './harness';

/**
 * The planner's statistics are kept by the app itself (autovacuum is off on CI's PostgreSQL and PGlite has none): a
 * table is analysed when it never was or has grown by a fifth and 8 pages, and left alone otherwise.
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(() => database?.close());

const reltuples = async (t: string) =>
  Number(
    rowsOf<{ n: number }>(
      await database.db.execute(sql`select reltuples as n from pg_class where relname = ${t}`),
    )[0].n,
  );
const fill = (t: string, from: number, to: number) =>
  database.db.execute(
    sql.raw(`insert into ${t} select i, repeat('x', 100) from generate_series(${from}, ${to}) i`),
  );

test('every table of the schema that was never analysed or has grown is analysed, and only those', async () => {
  await database.db.execute(sql`create table maint_a (id int primary key, t text)`);
  await database.db.execute(sql`create table maint_b (id int primary key, t text)`);
  await fill('maint_a', 1, 5000);
  await fill('maint_b', 1, 5000);
  expect(await reltuples('maint_a')).toBe(-1); // never analysed: a plan would guess

  const first = await analyzeStale(database.db);
  expect(first).toEqual(expect.arrayContaining(['maint_a', 'maint_b']));
  expect(await reltuples('maint_a')).toBe(5000);
  expect(await analyzeStale(database.db)).toEqual([]); // nothing changed: nothing to do

  await fill('maint_a', 5001, 5200); // +4 %: left alone
  await fill('maint_b', 5001, 8000); // +60 %: analysed
  expect(await analyzeStale(database.db)).toEqual(['maint_b']);
  expect(await reltuples('maint_a')).toBe(5000);
  expect(await reltuples('maint_b')).toBe(8000);

  // Named tables: only those are looked at.
  await fill('maint_a', 5201, 9000);
  expect(await analyzeStale(database.db, ['maint_b'])).toEqual([]);
  expect(await analyzeStale(database.db, ['maint_a'])).toEqual(['maint_a']);
  expect(await analyzeStale(database.db, [])).toEqual([]);
});

test('the rollup timer takes them after each run (the embedded database has no autovacuum)', async () => {
  await database.db.execute(sql`create table maint_c (id int primary key, t text)`);
  await fill('maint_c', 1, 3000);
  const info = vi.fn();
  const stop = startRollupTimer(database.db, {
    seconds: 3600,
    defaultTenant: 1,
    logger: { info, warn() {}, error() {} },
  });
  try {
    await vi.waitFor(
      () =>
        expect(info).toHaveBeenCalledWith(
          { tables: expect.arrayContaining(['maint_c']) },
          'planner statistics taken',
        ),
      { timeout: 30_000, interval: 100 },
    );
  } finally {
    stop();
  }
  expect(await reltuples('maint_c')).toBe(3000);
});
