import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { MARKED_DAYS } from '../../server/modules/statistics/rollup';
import { databaseBefore } from './harness';

/**
 * Migration 0250: the days an older release marked to be recomputed whole (`stat_dirty_days`) are queued whole in
 * `stat_fold_queue` (batch 0), beside the batches queued for them and for other days; the table goes.
 */
const FIRST_NEW = '0250';
let database: Database;
beforeAll(async () => {
  database = await databaseBefore(FIRST_NEW);
}, 120_000);
afterAll(() => database?.close());

test('days marked whole before the migration stay marked whole, batches queued stay queued', async () => {
  await database.db.execute(sql`insert into stat_dirty_days (tenant, day)
    values (2, '2026-03-01'), (2, '2026-03-02'), (3, '2026-03-01')`);
  await database.db.execute(sql`insert into stat_fold_queue (tenant, day, batch)
    values (2, '2026-03-02', 17), (2, '2026-03-03', 18), (2, '2026-03-03', 19)`);
  expect(await migrate(database.db)).toContain('0250_stat_whole_days_queued');
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
