import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { analyzeStale, autovacuumRuns, vacuumAll } from '../../server/db/maintenance';
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

const visibility = async (t: string) =>
  rowsOf<{ pages: number; visible: number }>(
    await database.db.execute(
      sql`select relpages as pages, relallvisible as visible from pg_class where relname = ${t}`,
    ),
  )[0];

test("vacuumAll sets every table's visibility map (what index-only scans need), where nothing else does", async () => {
  await database.db.execute(sql`create table maint_v (id int primary key, t text)`);
  await fill('maint_v', 1, 4000);
  await database.db.execute(sql`update maint_v set t = t || 'y' where id % 3 = 0`);
  await database.db.execute(sql`analyze maint_v`);
  const before = await visibility('maint_v');
  expect(before.pages).toBeGreaterThan(8);
  expect(before.visible).toBeLessThan(before.pages);
  const vacuumed = await vacuumAll(database.db);
  expect(vacuumed).toEqual(expect.arrayContaining(['maint_v', 'movies', 'stat_rolled_days']));
  const after = await visibility('maint_v');
  expect(after.visible).toBe(after.pages);
  // PGlite is one process, with no autovacuum; a PostgreSQL has one unless it is switched off.
  const [{ setting }] = rowsOf<{ setting: string }>(
    await database.db.execute(sql`select current_setting('autovacuum') as setting`),
  );
  expect(await autovacuumRuns(database.db)).toBe(database.driver === 'postgres' && setting === 'on');
});

test('the rollup timer vacuums every table at its interval where no autovacuum runs', async () => {
  if (await autovacuumRuns(database.db)) return; // a PostgreSQL with autovacuum: nothing for the timer to do
  await database.db.execute(sql`create table maint_w (id int primary key, t text)`);
  await fill('maint_w', 1, 4000);
  await database.db.execute(sql`update maint_w set t = t || 'y' where id % 2 = 0`);
  const info = vi.fn();
  const stop = startRollupTimer(database.db, {
    seconds: 3600,
    defaultTenant: 1,
    logger: { info, warn() {}, error() {} },
    vacuumEveryMs: 0,
  });
  try {
    await vi.waitFor(
      () => expect(info).toHaveBeenCalledWith({ tables: expect.any(Number) }, 'tables vacuumed'),
      {
        timeout: 30_000,
        interval: 100,
      },
    );
  } finally {
    stop();
  }
  const after = await visibility('maint_w');
  expect(after.visible).toBe(after.pages);
});
