import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { DayFold } from '../../server/modules/statistics/day-figures';
import { cachedFold } from '../../server/modules/statistics/fold-cache';
import { ingest } from '../../server/modules/statistics/ingest';
import { runRollup } from '../../server/modules/statistics/rollup';
import { freshDatabase } from './harness';

/**
 * Issue #48: a day's rollup held each distinct visitor in the process (its hours, its first day to look up, its
 * touches per channel), a kilobyte each: a day of millions of made-up visitors pushed the process out of memory. The
 * fold of a day now holds nothing whose size follows its visitors: the same day with ten times the visitors holds the
 * same entries, its sketches aside, which each hold at most a fixed number of registers.
 */
const TENANT = 2;
const NOW = new Date('2026-06-03T04:00:00Z'); // 12:00 in Shanghai
const DAY = '2026-06-03';
/** A sketch being built holds at most this many registers before it compacts them (day-figures.ts COMPACT_AT). */
const SKETCH_REGISTERS = 4096;

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(() => database?.close());

/** `n` visitors, each one page view of a.test (half by an agent's link) and one search, over the day's first hours. */
async function dayOf(n: number, prefix: string) {
  for (let i = 0; i < n; i += 500) {
    const events = [];
    for (let k = i; k < Math.min(n, i + 500); k++) {
      const time = new Date(
        Date.parse(`${DAY}T00:00:00+08:00`) + (k % 12) * 3_600_000 + 60_000,
      ).toISOString();
      const base = { time, domain: 'a.test', path: `/p${k % 3}`, visitor: `${prefix}${k}` };
      events.push({
        ...base,
        id: `${prefix}-pv-${k}`,
        type: 'pageview',
        channel: k % 2 ? 'agent1' : undefined,
      });
      events.push({ ...base, id: `${prefix}-s-${k}`, type: 'search', keyword: 'love', results: 1 });
    }
    await ingest(database.db, TENANT, events, { now: NOW, clientAddress: '10.0.0.1' });
  }
}

/**
 * The entries of every map, set and array reachable from `root` (a typed array: one, its length is fixed), but for
 * the sketches being built, whose registers are checked to stay within their bound instead.
 */
function entries(root: object): number {
  const seen = new Set<object>();
  let n = 0;
  const walk = (x: unknown) => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (ArrayBuffer.isView(x)) {
      n++;
      return;
    }
    if ('list' in x && 'dense' in x && 'changed' in x) {
      expect((x.list as unknown[]).length).toBeLessThanOrEqual(SKETCH_REGISTERS);
      return;
    }
    if (x instanceof Map)
      for (const [k, v] of x) {
        n++;
        walk(k);
        walk(v);
      }
    else if (x instanceof Set || Array.isArray(x))
      for (const v of x) {
        n++;
        walk(v);
      }
    else for (const v of Object.values(x)) walk(v);
  };
  walk(root);
  return n;
}

/** A day of `n` visitors read whole: the fold's entries once its events are folded, and once written. */
async function foldOf(n: number) {
  for (const t of ['stat_events', 'stat_fold_queue', 'stat_visitors', 'stat_touches', 'stat_rolled_days'])
    await database.db.execute(sql.raw(`delete from ${t}`));
  await dayOf(n, `n${n}-`);
  const fold = new DayFold(TENANT, DAY, 'Asia/Shanghai');
  let folded = 0;
  await database.db.transaction(async (tx) => {
    await fold.read(tx, { onFolded: () => (folded = entries(fold)) });
    await fold.write(tx, { whole: true });
  });
  // And the server's way: the day rolled up whole, its fold kept for the next run.
  const run = await runRollup(database.db, { now: NOW, defaultTenant: TENANT });
  expect(run.days).toEqual([{ tenant: TENANT, day: DAY }]);
  const [site] = rowsOf<{ visits: number; fresh: number; touches: number }>(
    await database.db.execute(sql`select visits, new_visitors as fresh,
        (select count(*)::int from stat_touches where day = ${DAY}::date) as touches
      from stat_domain_daily where day = ${DAY}::date and domain = ''`),
  );
  expect([site.visits, site.fresh, site.touches].map(Number)).toEqual([n, n, n / 2]);
  return { folded, written: entries(fold), kept: entries(cachedFold(database.db, TENANT, DAY)!) };
}

test('a day’s fold holds the same entries whatever its number of visitors', async () => {
  const few = await foldOf(1_000);
  const many = await foldOf(10_000);
  expect(many).toEqual(few);
  expect(many.folded).toBeLessThan(1_000);
}, 120_000);
