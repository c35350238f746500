import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDays } from '../../common/period';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database, Executor } from '../../server/db/types';
import { ingest } from '../../server/modules/statistics/ingest';
import { REPORTS, type ReportQuery, runReport } from '../../server/modules/statistics/reports';
import { queueWhole, runRollup } from '../../server/modules/statistics/rollup';
import { databaseBefore, freshDatabase } from './harness';
import { watchedDb } from './stats-helpers';

/**
 * Issue #50: every keyword's sums over a long period come from `stat_keyword_blocks` (its sums pre-added over aligned
 * blocks of days), kept by triggers on `stat_keyword_daily`. Whatever writes the daily rows (inserts, the rollup's
 * upserts, a day rewritten whole, deletions), each block equals the sums of its days, and a report read from the
 * blocks equals one read from every day.
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(() => database?.close());

/** Each block's sums computed from the daily rows, and the blocks as kept, both in one order. */
async function blocksAndRecount(db: Executor) {
  const order = sql`order by tenant, level, start, keyword`;
  const kept = rowsOf(
    await db.execute(sql`select tenant, level, start::text, keyword, searches, zero_results, results_sum::text
      from stat_keyword_blocks ${order}`),
  );
  const recount = rowsOf(
    await db.execute(sql`select tenant, level, start::text, keyword, searches, zero_results, results_sum::text from (
      select d.tenant, l.level::smallint as level,
        date '1970-01-01' + ((d.day - date '1970-01-01') >> l.level << l.level) as start, d.keyword,
        sum(d.searches)::int as searches, sum(d.zero_results)::int as zero_results, sum(d.results_sum) as results_sum
      from stat_keyword_daily d, generate_series(1, 8) l (level) group by 1, 2, 3, 4) x ${order}`),
  );
  return { kept, recount };
}

const DAYS = Array.from({ length: 100 }, (_, i) => addDays('2026-03-01', i));
const row = fc.record({
  tenant: fc.constantFrom(2, 3),
  day: fc.constantFrom(...DAYS),
  keyword: fc.constantFrom<string>('', 'love', 'gap', '爱情', 'a b'),
  searches: fc.integer({ min: 1, max: 9 }),
  zero: fc.integer({ min: 0, max: 3 }),
  results: fc.integer({ min: 0, max: 5_000_000_000 }),
});
type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;
const values = (rows: Row[]) =>
  sql.join(
    rows.map(
      (r) =>
        sql`(${r.tenant}, ${r.day}::date, ${r.keyword}, ${r.searches}, ${Math.min(r.zero, r.searches)}, ${r.results})`,
    ),
    sql`, `,
  );
/** Rows with one row per key: a statement may not write a row twice. */
const distinct = (rows: Row[]) => [
  ...new Map(rows.map((r) => [`${r.tenant}|${r.day}|${r.keyword}`, r])).values(),
];

test('the blocks equal the sums of their days through inserts, upserts, days rewritten whole and deletions', async () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('upsert' as const), rows: fc.array(row, { minLength: 1, maxLength: 12 }) }),
    fc.record({ kind: fc.constant('rewrite' as const), rows: fc.array(row, { minLength: 1, maxLength: 8 }) }),
    fc.record({
      kind: fc.constant('delete' as const),
      day: fc.constantFrom(...DAYS),
      keyword: fc.option(fc.constantFrom('love', 'gap')),
    }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
      await database.db.execute(sql`delete from stat_keyword_daily`);
      for (const o of ops) {
        if (o.kind === 'upsert')
          // as the rollup writes a day's keywords folded since its last run: new ones inserted, others updated
          await database.db.execute(sql`insert into stat_keyword_daily (tenant, day, keyword, searches, zero_results, results_sum)
            values ${values(distinct(o.rows))} on conflict (tenant, day, keyword) do update
            set searches = excluded.searches, zero_results = excluded.zero_results, results_sum = excluded.results_sum`);
        else if (o.kind === 'rewrite') {
          // as a day read whole replaces the day's rows
          const day = o.rows[0].day;
          const rows = distinct(o.rows.map((r) => ({ ...r, day })));
          await database.db.transaction(async (tx) => {
            await tx.execute(sql`delete from stat_keyword_daily where day = ${day}::date`);
            await tx.execute(sql`insert into stat_keyword_daily (tenant, day, keyword, searches, zero_results, results_sum)
              values ${values(rows)}`);
          });
        } else
          await database.db.execute(sql`delete from stat_keyword_daily where day = ${o.day}::date
            ${o.keyword === null ? sql`` : sql`and keyword = ${o.keyword}`}`);
        const { kept, recount } = await blocksAndRecount(database.db);
        expect(kept).toEqual(recount);
      }
    }),
    { numRuns: 15 },
  );
});

test('a keywords report read from the blocks equals one read from every day, over periods of any length', async () => {
  await database.db.execute(sql`delete from stat_keyword_daily`);
  const rows: Row[] = [];
  for (const [i, day] of DAYS.entries())
    for (const [k, keyword] of ['', 'love', 'gap', '爱情', 'a b', 'rare'].entries())
      if (keyword !== 'rare' || i % 9 === 0)
        rows.push({
          tenant: 2,
          day,
          keyword,
          searches: 1 + ((i * 7 + k * 3) % 11),
          zero: (i + k) % 2,
          results: i * k,
        });
  await database.db.execute(sql`insert into stat_keyword_daily (tenant, day, keyword, searches, zero_results, results_sum)
    values ${values(rows)}`);
  const withoutBlocks = { ...REPORTS.keywords, sumBlocks: undefined };
  const watched = watchedDb(database.db);
  let pieces = 0;
  for (const [from, to] of [
    [DAYS[0], DAYS[99]],
    [DAYS[3], DAYS[60]],
    [DAYS[1], DAYS[2]],
    [DAYS[17], DAYS[17]],
  ])
    for (const sort of ['searches', 'avgResults', 'key']) {
      const q: ReportQuery = {
        tenant: 2,
        period: { from, to },
        scope: [],
        sort,
        order: 'desc',
        page: 1,
        pageSize: 3,
        compare: true,
        cache: false,
      };
      watched.seen.length = 0;
      const fromBlocks = await runReport(watched.db, REPORTS.keywords, q);
      // A period of months reads blocks (its and the previous period's); one day (and the day before it), the days' rows.
      const readBlocks = watched.seen.some((x) => x.sql.includes('from stat_keyword_blocks'));
      if (from === to) expect(readBlocks).toBe(false);
      if (from === DAYS[0]) expect(readBlocks).toBe(true);
      expect(fromBlocks, `${from} ${to} ${sort}`).toEqual(await runReport(database.db, withoutBlocks, q));
      pieces += fromBlocks.total;
    }
  expect(pieces).toBeGreaterThan(0);
});

test('the migration builds the blocks of the keywords rolled up before it', async () => {
  const older = await databaseBefore('0260');
  try {
    await older.db.execute(sql`insert into stat_keyword_daily (tenant, day, keyword, searches, zero_results, results_sum)
      values (2, '2026-03-01', 'love', 3, 1, 10), (2, '2026-03-02', 'love', 2, 0, 7), (2, '2026-03-09', 'love', 1, 1, 0),
        (2, '2026-03-02', '', 5, 1, 17), (3, '2026-03-01', 'gap', 4, 4, 0)`);
    await migrate(older.db);
    const { kept, recount } = await blocksAndRecount(older.db);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(recount);
    // and kept from then on
    await older.db.execute(
      sql`update stat_keyword_daily set searches = 9 where day = '2026-03-02' and keyword = 'love'`,
    );
    const after = await blocksAndRecount(older.db);
    expect(after.kept).toEqual(after.recount);
  } finally {
    await older.close();
  }
}, 120_000);

test("a day rolled up whole again writes only the keywords whose rows changed: the others' rows and blocks stay as they were", async () => {
  await database.db.execute(sql`delete from stat_keyword_daily`);
  const now = new Date('2026-06-03T08:00:00Z'); // 16:00 in Shanghai
  const day = '2026-06-03';
  let seq = 0;
  const search = async (keyword: string) => {
    const event = {
      id: `kw-block-${seq++}`,
      type: 'search',
      time: '2026-06-03T07:00:00Z',
      domain: 'a.test',
      path: '/search',
      keyword,
      results: 2,
      visitor: 'v1',
    };
    const r = await ingest(database.db, 2, [event], { now, clientAddress: '10.0.0.1' });
    expect(r, JSON.stringify(r)).toMatchObject({ accepted: 1 });
  };
  const rolled = async () => {
    const run = await runRollup(database.db, { now, defaultTenant: 2 });
    expect(run.days).toEqual([{ tenant: 2, day }]);
  };
  /** Each row's transaction id (xmin): a row written again has a new one. */
  const versions = async (table: string) =>
    rowsOf<{ k: string; x: string }>(
      await database.db.execute(
        sql`select keyword || '|' || ${sql.raw(table === 'stat_keyword_blocks' ? 'level' : "''")} as k, xmin::text as x
          from ${sql.raw(table)} where tenant = 2 order by 1`,
      ),
    );
  for (const k of ['love', 'love', 'gap', '爱情']) await search(k);
  await rolled();
  const rows = await versions('stat_keyword_daily');
  const blocks = await versions('stat_keyword_blocks');
  expect(rows.map((r) => r.k).sort()).toEqual(['gap|', 'love|', '|', '爱情|']);
  expect(blocks.length).toBe(4 * 8);

  await queueWhole(database.db, 2, [day]);
  await rolled();
  expect(await versions('stat_keyword_daily')).toEqual(rows);
  expect(await versions('stat_keyword_blocks')).toEqual(blocks);

  // One more search of gap, read whole: gap's row and the day's total change, and their blocks; love's stay.
  await search('gap');
  await queueWhole(database.db, 2, [day]);
  await rolled();
  const changed = (before: { k: string; x: string }[], after: { k: string; x: string }[]) =>
    after.filter((r, i) => r.x !== before[i].x).map((r) => r.k.split('|')[0]);
  expect([...new Set(changed(rows, await versions('stat_keyword_daily')))].sort()).toEqual(['', 'gap']);
  expect([...new Set(changed(blocks, await versions('stat_keyword_blocks')))].sort()).toEqual(['', 'gap']);
  const { kept, recount } = await blocksAndRecount(database.db);
  expect(kept).toEqual(recount);
});
