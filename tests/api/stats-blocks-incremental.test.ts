import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database, Db } from '../../server/db/types';
import { ingest } from '../../server/modules/statistics/ingest';
import { queueWhole, runRollup } from '../../server/modules/statistics/rollup';
import { freshDatabase } from './harness';
import { watchedDb } from './stats-helpers';

/**
 * Issue #50: a rollup that folds the batches queued since its last run changes the pre-merged blocks (blocks.ts) of
 * the domains whose sketches those batches may have changed, and no other: it folded every domain of the day on every run, so
 * a run's cost grew with the day's domains however few events came. The blocks stay equal to the day's recomputed
 * whole.
 */
const TENANT = 2;
const NOW = new Date('2026-06-03T08:00:00Z'); // 16:00 in Shanghai
const DAY = '2026-06-03';
const DOMAINS = 30;

let database: Database;
let watched: ReturnType<typeof watchedDb>;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
  watched = watchedDb(database.db as Db);
});
afterAll(() => database?.close());

let seq = 0;
/** A page view of `visitor` on `domain`, sent from `address`. */
const view = (visitor: string, domain: string, address = '10.0.0.1') => ({
  address,
  event: {
    id: `blocks-inc-${seq++}`,
    type: 'pageview',
    time: new Date(NOW.getTime() - 3_600_000).toISOString(),
    domain,
    path: '/',
    visitor,
  },
});
async function send(views: ReturnType<typeof view>[]) {
  for (const { address, event } of views) {
    const r = await ingest(database.db, TENANT, [event], { now: NOW, clientAddress: address });
    expect(r, JSON.stringify(r)).toMatchObject({ accepted: 1 });
  }
}
/** Rolls up through the watched handle (its kept fold serves the next run); the domains whose blocks it folded. */
async function rolled(): Promise<string[][]> {
  const mark = watched.seen.length;
  const run = await runRollup(watched.db as unknown as Database['db'], { now: NOW, defaultTenant: TENANT });
  expect(run.days).toEqual([{ tenant: TENANT, day: DAY }]);
  return watched.seen
    .slice(mark)
    .filter((s) => /^select k\.key, 0 as level, .* from stat_domain_blocks\s/s.test(s.sql))
    .map((s) => {
      const list = s.params.find((p) => typeof p === 'string' && p.startsWith('{'));
      return String(list)
        .slice(1, -1)
        .split(',')
        .map((k) => JSON.parse(k));
    });
}
const blocks = async () =>
  rowsOf(
    await database.db.execute(sql`select domain, level, start::text as start, encode(visitors, 'hex') as v,
      encode(addresses, 'hex') as a from stat_domain_blocks where tenant = ${TENANT} order by domain, level, start`),
  );

test('a fold of new batches folds the blocks of the domains whose sketches changed alone, equal to a whole recompute', async () => {
  await send(Array.from({ length: DOMAINS }, (_, i) => view(`v${i}`, `d${i}.test`)));
  const first = await rolled();
  expect(first.flat().length).toBe(DOMAINS + 1); // the day read whole: every domain and the site ('')

  // A visitor new to d3, and one returning to d5: their domains' and the site's blocks are folded, no other's. (A
  // small sketch counts as changed by any visitor; a dense one only by a register that rises.)
  await send([view('new-visitor', 'd3.test', '10.0.0.2'), view('v5', 'd5.test')]);
  expect((await rolled()).flat().sort()).toEqual(['', 'd3.test', 'd5.test']);

  const incremental = await blocks();
  await queueWhole(database.db, TENANT, [DAY]);
  expect((await rolled()).flat().length).toBe(DOMAINS + 1);
  expect(await blocks()).toEqual(incremental);
  expect(incremental.length).toBe((DOMAINS + 1) * 8);
});
