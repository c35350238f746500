import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { MARKED_DAYS, stuckDays } from '../../server/modules/statistics/rollup';
import { databaseBefore } from './harness';

/**
 * Two tables of days folded into others. Migration 0250: the days an older release marked to be recomputed whole
 * (`stat_dirty_days`) are queued whole in `stat_fold_queue` (batch 0), beside the batches queued for them and for
 * other days. Migration 0255: its stuck days (`stat_stuck_days`) are recorded on their `stat_rolled_days` rows, a
 * day rolled up before keeping its stamps. Both tables go.
 */
const FIRST_NEW = '0250';
let database: Database;
beforeAll(async () => {
  database = await databaseBefore(FIRST_NEW);
  await database.db.execute(sql`insert into stat_stuck_days (tenant, day, error, failed_at, attempts)
    values (2, '2026-03-04', 'check violated', '2026-03-05T01:00:00Z', 3),
      (2, '2026-03-05', 'value too long', '2026-03-05T02:00:00Z', 1)`);
  await database.db.execute(sql`insert into stat_rolled_days (tenant, day, gen, day_gen)
    values (2, '2026-03-04', 900, 800), (2, '2026-03-06', 901, 901)`);
}, 120_000);
afterAll(() => database?.close());

test('days marked whole before the migration stay marked whole, batches queued stay queued', async () => {
  await database.db.execute(sql`insert into stat_dirty_days (tenant, day)
    values (2, '2026-03-01'), (2, '2026-03-02'), (3, '2026-03-01')`);
  await database.db.execute(sql`insert into stat_fold_queue (tenant, day, batch)
    values (2, '2026-03-02', 17), (2, '2026-03-03', 18), (2, '2026-03-03', 19)`);
  expect(await migrate(database.db)).toEqual(
    expect.arrayContaining(['0250_stat_whole_days_queued', '0255_stat_stuck_days_in_rolled_days']),
  );
  const marked = rowsOf<{ tenant: number; day: string; whole: boolean }>(
    await database.db.execute(
      sql`select tenant, day::text as day, whole from (${MARKED_DAYS}) m order by tenant, day`,
    ),
  ).map((r) => [Number(r.tenant), r.day, r.whole]);
  expect(marked).toEqual([
    [2, '2026-03-01', true],
    [2, '2026-03-02', true],
    [2, '2026-03-03', false],
    [3, '2026-03-01', true],
  ]);
  const queued = rowsOf<{ batch: string }>(
    await database.db.execute(sql`select batch::text from stat_fold_queue where tenant = 2 and day = '2026-03-02'
      order by batch`),
  ).map((r) => Number(r.batch));
  expect(queued).toEqual([0, 17]);
  const [gone] = rowsOf<{ t: string | null }>(
    await database.db.execute(sql`select to_regclass('stat_dirty_days')::text as t`),
  );
  expect(gone.t).toBeNull();
});

test('days stuck before the migration are listed as before; the rolled days keep their stamps', async () => {
  expect(await stuckDays(database.db, 2)).toEqual([
    {
      tenant: 2,
      day: '2026-03-04',
      error: 'check violated',
      failedAt: '2026-03-05T01:00:00.000Z',
      attempts: 3,
    },
    {
      tenant: 2,
      day: '2026-03-05',
      error: 'value too long',
      failedAt: '2026-03-05T02:00:00.000Z',
      attempts: 1,
    },
  ]);
  const rolled = rowsOf<{ day: string; gen: string; day_gen: string }>(
    await database.db.execute(
      sql`select day::text as day, gen::text, day_gen::text from stat_rolled_days order by day`,
    ),
  ).map((r) => [r.day, Number(r.gen), Number(r.day_gen)]);
  expect(rolled).toEqual([
    ['2026-03-04', 900, 800],
    ['2026-03-05', 0, 0],
    ['2026-03-06', 901, 901],
  ]);
  const [gone] = rowsOf<{ t: string | null }>(
    await database.db.execute(sql`select to_regclass('stat_stuck_days')::text as t`),
  );
  expect(gone.t).toBeNull();
});
