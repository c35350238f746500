import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { cachedFold } from '../../server/modules/statistics/fold-cache';
import { ingest } from '../../server/modules/statistics/ingest';
import { queueWhole, runRollup } from '../../server/modules/statistics/rollup';
import { freshDatabase } from './harness';

/**
 * Issue #50: a day rolled up again from the batches queued since groups those batches' page views alone, merges them
 * into its visitors' hours (`stat_visitor_hours`) and adds the difference to the day's visits, bounces and new
 * visitors, instead of reading the day's events again. Its counts and its visitors' hours equal the day's recomputed
 * whole.
 */
const TENANT = 2;
const NOW = new Date('2026-06-03T08:00:00Z'); // 16:00 in Shanghai
const DAY = '2026-06-03';
const OTHERS = 40;

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(() => database?.close());

let seq = 0;
/** A page view of `visitor` on `domain` at `hour`:10 Shanghai time of the day. */
const view = (visitor: string, domain: string, hour: number) => ({
  id: `pageview-${seq++}`,
  type: 'pageview',
  time: new Date(Date.parse(`${DAY}T00:10:00+08:00`) + hour * 3_600_000).toISOString(),
  domain,
  path: '/',
  visitor,
});

async function send(events: object[]) {
  const r = await ingest(database.db, TENANT, events, { now: NOW, clientAddress: '10.0.0.1' });
  expect(r.accepted).toBe(events.length);
}

type Counts = { domain: string; hour?: number; visits: number; bounced: number; new_visitors: number };

/** The day's visits, bounces and new visitors per domain and hour, and its visitors' first days. */
async function counts() {
  return {
    daily: rowsOf<Counts>(
      await database.db.execute(sql`select domain, visits, bounced, new_visitors from stat_domain_daily
        where tenant = ${TENANT} and day = ${DAY}::date order by domain`),
    ),
    hourly: rowsOf<Counts>(
      await database.db.execute(sql`select domain, hour, visits, bounced, new_visitors from stat_domain_hourly
        where tenant = ${TENANT} and day = ${DAY}::date order by domain, hour`),
    ),
    visitors: rowsOf(
      await database.db.execute(sql`select domain, visitor::text, first_day::text from stat_visitors
        where tenant = ${TENANT} order by domain, visitor`),
    ),
    hours: rowsOf(
      await database.db.execute(sql`select domain, visitor::text, once, more, fresh from stat_visitor_hours
        where tenant = ${TENANT} and day = ${DAY}::date order by domain, visitor`),
    ),
  };
}

test('a day rolled up again groups only its new batches’ visitors and counts as the day recomputed whole', async () => {
  // The first batches: a bounces in hour 1, b views two pages, c one page of b.test, and others one page each.
  await send([
    view('a', 'a.test', 1),
    view('b', 'a.test', 2),
    view('b', 'a.test', 2),
    view('c', 'b.test', 3),
    ...Array.from({ length: OTHERS }, (_, i) => view(`o${i}`, 'a.test', i % 5)),
  ]);
  const first = await runRollup(database.db, { now: NOW, defaultTenant: TENANT });
  expect(first.days).toEqual([{ tenant: TENANT, day: DAY }]);
  expect(cachedFold(database.db, TENANT, DAY)?.visitsRead).toBe(4 + OTHERS);

  // Then: a's bounce becomes a visit of two pages, b comes back in a later hour, c visits a.test too, d is new.
  await send([
    view('a', 'a.test', 1),
    view('b', 'a.test', 6),
    view('c', 'a.test', 3),
    view('d', 'b.test', 7),
  ]);
  const again = await runRollup(database.db, { now: NOW, defaultTenant: TENANT });
  expect(again.days).toEqual([{ tenant: TENANT, day: DAY }]);
  // The new batch's page views alone: none of the day's earlier events is read again.
  expect(cachedFold(database.db, TENANT, DAY)?.visitsRead).toBe(4);
  const incremental = await counts();
  const site = incremental.daily.find((r) => r.domain === '')!;
  expect([site.visits, site.bounced, site.new_visitors].map(Number)).toEqual([
    4 + OTHERS,
    1 + OTHERS,
    4 + OTHERS,
  ]);
  const hour1 = incremental.hourly.find((r) => r.domain === 'a.test' && Number(r.hour) === 1)!;
  // a and the others of hour 1 (every fifth): a no longer bounced there.
  expect([hour1.visits, hour1.bounced].map(Number)).toEqual([1 + OTHERS / 5, OTHERS / 5]);

  // The same day recomputed whole from its raw events gives the same rows.
  await queueWhole(database.db, TENANT, [DAY]);
  const whole = await runRollup(database.db, { now: NOW, defaultTenant: TENANT });
  expect(whole.days).toEqual([{ tenant: TENANT, day: DAY }]);
  expect(cachedFold(database.db, TENANT, DAY)?.visitsRead).toBe(8 + OTHERS);
  expect(await counts()).toEqual(incremental);
});

test('the visitors’ hours of a day no fold is kept for any more are deleted by the next run', async () => {
  const hours = async () =>
    Number(
      rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from stat_visitor_hours where day = ${DAY}::date`,
        ),
      )[0].n,
    );
  expect(await hours()).toBeGreaterThan(0);
  // The next day the day is yesterday: its rows stay, it may still be rolled from its new batches.
  await runRollup(database.db, { now: new Date(NOW.getTime() + 86_400_000), defaultTenant: TENANT });
  expect(await hours()).toBeGreaterThan(0);
  await runRollup(database.db, { now: new Date(NOW.getTime() + 2 * 86_400_000), defaultTenant: TENANT });
  expect(await hours()).toBe(0);
});

test('a run summarizes the batches’ index over the pages stored since, so its reads of new batches skip the rest', async () => {
  const unsummarized = async () =>
    Number(
      rowsOf<{ n: number }>(
        await database.db.execute(sql`select coalesce(sum(brin_summarize_new_values(i.indexrelid)), 0)::int as n
          from pg_index i join pg_class t on t.oid = i.indrelid join pg_class x on x.oid = i.indexrelid
          join pg_am a on a.oid = x.relam
          where t.relname = ${`stat_events_p${DAY.replaceAll('-', '')}`} and a.amname = 'brin'`),
      )[0].n,
    );
  // Enough events for whole ranges of pages (128 pages each; the last, partial one is never summarized).
  for (let b = 0; b < 12; b++)
    await send(Array.from({ length: 500 }, (_, i) => view(`late${b}-${i}`, 'a.test', 9)));
  await runRollup(database.db, { now: NOW, defaultTenant: TENANT });
  // Nothing is left to summarize (no vacuum runs here: it is the run's doing).
  expect(await unsummarized()).toBe(0);
});
