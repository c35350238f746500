import { createHash, hash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, dayStart, hourOf } from '../../common/period';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database, Db } from '../../server/db/types';
import { allAgentsStat } from '../../server/modules/agents/stat';
import { ATTRIBUTED_SUMS } from '../../server/modules/statistics/attributed-blocks';
import { blockStart, MAX_LEVEL } from '../../server/modules/statistics/blocks';
import { DAY_FIGURE_TABLES, DayFold } from '../../server/modules/statistics/day-figures';
import type { EventRow } from '../../server/modules/statistics/events';
import { cachedFold } from '../../server/modules/statistics/fold-cache';
import { ingest } from '../../server/modules/statistics/ingest';
import { REPORTS, runReport } from '../../server/modules/statistics/reports';
import {
  MARKED_DAYS,
  queueWhole,
  RollupPace,
  rawPartitions,
  rollupDay,
  runRollup,
} from '../../server/modules/statistics/rollup';
import {
  add,
  emptyRegisters,
  encode,
  estimate,
  estimateStored,
  merge,
} from '../../server/modules/statistics/sketch';
import { freshDatabase, onPostgres } from './harness';
import { watchedDb } from './stats-helpers';

/**
 * Issue #12: the rollup equals a recount from the raw events, for random event sets, also when a run stops halfway,
 * a day's recompute is rolled back midway (a crash), days are rolled up again, and a batch is sent twice.
 */
const TENANT = 2;
const NOW = new Date('2026-06-03T04:00:00Z'); // 12:00 in Shanghai
const DAYS = ['2026-06-01', '2026-06-02', '2026-06-03'];
const hash64 = (s: string) =>
  BigInt.asIntN(64, BigInt(`0x${createHash('md5').update(s).digest('hex').slice(0, 16)}`));

const md5 = (text: string) => hash('md5', text);

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
  await migrate(database.db); // PostgreSQL's fresh database starts empty; on PGlite this finds nothing to do
});
afterAll(() => database?.close());

/** On PostgreSQL each day's three parts run on three connections (the server's way there); PGlite has one. */
const par = () => database.driver === 'postgres';
const q = async <T>(s: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(s));
/** A day's site-wide page views as stored (none: no row). */
const siteViews = async (day: string) =>
  (
    await q<{ n: number }>(
      sql`select page_views as n from stat_domain_daily where day = ${day}::date and domain = ''`,
    )
  ).map((r) => Number(r.n));

async function reset() {
  for (const p of await rawPartitions(database.db))
    await database.db.execute(sql.raw(`drop table ${p.name}`));
  for (const t of [
    'stat_fold_queue',
    'stat_rolled_days',
    'stat_visitors',
    'stat_keyword_daily',
    'stat_object_daily',
    'stat_domain_daily',
    'stat_domain_blocks',
    'stat_domain_hourly',
    'stat_visit_daily',
    'stat_channel_daily',
    'stat_touches',
    'stat_signups',
    'stat_payers',
    'stat_attributed_daily',
    'stat_attributed_blocks',
    'stat_attributed_block_sketches',
    'stat_attributed_totals',
  ])
    await database.db.execute(sql.raw(`delete from ${t}`));
}

const arbEvent = fc.record({
  day: fc.integer({ min: 0, max: 2 }),
  hour: fc.integer({ min: 0, max: 23 }),
  type: fc.constantFrom('pageview', 'pageview', 'play', 'search', 'ad_click', 'signup'),
  domain: fc.constantFrom('a.test', 'b.test', 'c.test'),
  path: fc.constantFrom('/', '/x', '/y'),
  visitor: fc.integer({ min: 0, max: 25 }),
  keyword: fc.constantFrom('love', 'Love ', 'war', '战争', 'none'),
  results: fc.integer({ min: 0, max: 2 }),
  movie: fc.integer({ min: 0, max: 3 }),
  channel: fc.constantFrom('', 'agent1', 'agent2'),
});
type Gen = typeof arbEvent extends fc.Arbitrary<infer T> ? T : never;

let seq = 0;
function toEvent(g: Gen) {
  // hours in Shanghai (UTC+8) of the day: that day 00:00 local is the previous day 16:00 UTC
  const t = new Date(Date.parse(`${DAYS[g.day]}T00:00:00+08:00`) + g.hour * 3_600_000 + 60_000);
  return {
    id: `prop-evt-${++seq}`,
    type: g.type,
    time: (t > NOW ? new Date(NOW.getTime() - 60_000) : t).toISOString(),
    domain: g.domain,
    path: g.path,
    visitor: `v${g.visitor}`,
    channel: g.channel || undefined,
    ...(g.type === 'search' ? { keyword: g.keyword, results: g.results } : {}),
    ...(g.movie && (g.type === 'pageview' || g.type === 'play')
      ? { object: { type: 'movie', id: g.movie } }
      : {}),
    // ad clicks and signups name an ad (the ads reports read clicks, unique clickers and signups per ad)
    ...(g.movie && (g.type === 'ad_click' || g.type === 'signup')
      ? { object: { type: 'ad', id: g.movie } }
      : {}),
  };
}

/** Every row of the tables a day's figures are written to, and of the first-seen days, in a stable order. */
async function figureRows() {
  const out: Record<string, unknown[]> = {};
  for (const t of [...DAY_FIGURE_TABLES, 'stat_visitors'])
    out[t] = await q(sql.raw(`select * from ${t} order by ${t}::text`)); // every column: no ties
  return out;
}

/** What the rollup tables must hold, counted from the events that were stored. */
async function recount() {
  const raw = await q<Record<string, any>>(
    sql`select day::text as day, type, domain, path, visitor, channel, keyword, results, object_type, object_id,
      extract(hour from at at time zone 'Asia/Shanghai')::int as hour from stat_events where tenant = ${TENANT}`,
  );
  const key = (...p: unknown[]) => p.join('|');
  const inc = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);
  const kw = new Map<string, number>();
  const zero = new Map<string, number>();
  const pv = new Map<string, number>();
  const visitorPv = new Map<string, number>();
  const hourPv = new Map<string, number>(); // day|domain|hour|visitor
  const obj = new Map<string, number>();
  const ch = new Map<string, number>();
  const visit = new Map<string, number>();
  const uniq = new Map<string, Set<string>>();
  const addU = (k: string, v: string) => {
    if (!uniq.has(k)) uniq.set(k, new Set());
    uniq.get(k)!.add(v);
  };
  for (const e of raw) {
    if (e.type === 'search') {
      for (const k of [e.keyword, '']) {
        inc(kw, key(e.day, k));
        if (Number(e.results) === 0) inc(zero, key(e.day, k));
        addU(key('kw', e.day, k), e.visitor);
      }
    }
    if (e.type === 'pageview') {
      for (const d of [e.domain, '']) {
        inc(pv, key(e.day, d));
        inc(visitorPv, key(e.day, d, e.visitor));
        inc(hourPv, key(e.day, d, e.hour, e.visitor));
        addU(key('dom', d), e.visitor);
      }
      inc(visit, key(e.day, e.domain, 'path', e.path));
      inc(visit, key(e.day, e.domain, 'channel', e.channel));
    }
    if (e.object_type === 'movie') {
      inc(obj, key(e.day, e.object_id, e.type));
      inc(obj, key(e.day, 0, e.type));
    }
    if (e.object_type === 'ad') {
      for (const id of [e.object_id, 0]) {
        inc(obj, key('ad', e.day, id, e.type));
        if (e.type === 'ad_click') addU(key('clickers', id), e.visitor);
      }
    }
    inc(ch, key(e.day, e.channel, e.type));
  }
  return { kw, zero, pv, visitorPv, hourPv, obj, ch, visit, uniq };
}

async function expectRollupsMatch() {
  const want = await recount();
  // The attribution's touches: each visitor's first time of the day per channel (the event's, else its domain's).
  expect(
    await q(
      sql`select visitor_hash::text as v, day::text as day, channel, at from stat_touches order by 1, 2, 3`,
    ),
  ).toEqual(
    await q(sql`select visitor_hash::text as v, day::text as day, ch as channel, min(at) as at
      from (select e.*, case when e.channel <> '' then e.channel else coalesce(b.channel, '') end as ch
        from stat_events e left join domains b on b.tenant = e.tenant and b.hostname = e.domain) e
      where ch <> '' group by 1, 2, 3 order by 1, 2, 3`),
  );
  const kwRows = await q<any>(
    sql`select day::text as day, keyword, searches, zero_results from stat_keyword_daily`,
  );
  expect(new Map(kwRows.map((r) => [`${r.day}|${r.keyword}`, Number(r.searches)]))).toEqual(want.kw);
  for (const r of kwRows) expect(Number(r.zero_results)).toBe(want.zero.get(`${r.day}|${r.keyword}`) ?? 0);

  const dom = await q<any>(
    sql`select day::text as day, domain, page_views, visits, bounced from stat_domain_daily`,
  );
  expect(new Map(dom.map((r) => [`${r.day}|${r.domain}`, Number(r.page_views)]))).toEqual(want.pv);
  for (const r of dom) {
    const per = [...want.visitorPv].filter(([k]) => k.startsWith(`${r.day}|${r.domain}|`));
    expect(Number(r.visits)).toBe(per.length);
    expect(Number(r.bounced)).toBe(per.filter(([, n]) => n === 1).length);
  }
  const hourly = await q<any>(
    sql`select day::text as day, domain, sum(page_views)::int as n from stat_domain_hourly group by 1, 2`,
  );
  expect(new Map(hourly.map((r) => [`${r.day}|${r.domain}`, Number(r.n)]))).toEqual(want.pv);
  // Each hour's visits (a visitor in the hour) and bounces (one page view in it).
  const hours = await q<any>(
    sql`select day::text as day, domain, hour, visits, bounced from stat_domain_hourly`,
  );
  const perHour = new Map<string, number[]>();
  for (const [k, n] of want.hourPv) {
    const at = k.slice(0, k.lastIndexOf('|'));
    perHour.set(at, [...(perHour.get(at) ?? []), n]);
  }
  expect(
    new Map(hours.map((r) => [`${r.day}|${r.domain}|${r.hour}`, [Number(r.visits), Number(r.bounced)]])),
  ).toEqual(new Map([...perHour].map(([k, ns]) => [k, [ns.length, ns.filter((n) => n === 1).length]])));

  const obj = await q<any>(
    sql`select object_type, day::text as day, object_id, views, plays, clicks, signups from stat_object_daily where object_type in ('movie', 'ad')`,
  );
  const gotObj = new Map<string, number>();
  for (const r of obj) {
    const at = r.object_type === 'ad' ? `ad|${r.day}` : r.day;
    for (const [col, type] of [
      ['views', 'pageview'],
      ['plays', 'play'],
      ['clicks', 'ad_click'],
      ['signups', 'signup'],
    ] as const)
      if (Number(r[col])) gotObj.set(`${at}|${r.object_id}|${type}`, Number(r[col]));
  }
  expect(gotObj).toEqual(want.obj);
  for (const id of [0, 1]) {
    const rows = await q<{ s: Uint8Array }>(
      sql`select clickers as s from stat_object_daily where object_type = 'ad' and object_id = ${id}`,
    );
    const r = emptyRegisters();
    for (const v of want.uniq.get(`clickers|${id}`) ?? []) add(r, hash64(v));
    expect(estimateStored(rows.map((x) => x.s))).toBe(estimate(r));
  }

  const ch =
    await q<any>(sql`select day::text as day, channel, page_views, plays, ad_clicks, signups, searches from
    (select *, 0 as searches from stat_channel_daily) x`);
  const gotCh = new Map<string, number>();
  for (const r of ch)
    for (const [col, type] of [
      ['page_views', 'pageview'],
      ['plays', 'play'],
      ['ad_clicks', 'ad_click'],
      ['signups', 'signup'],
    ] as const)
      if (Number(r[col])) gotCh.set(`${r.day}|${r.channel}|${type}`, Number(r[col]));
  expect(gotCh).toEqual(new Map([...want.ch].filter(([k]) => !k.endsWith('|search'))));

  const visit = await q<any>(
    sql`select day::text as day, domain, dimension, key, page_views from stat_visit_daily where dimension in ('path', 'channel')`,
  );
  expect(
    new Map(visit.map((r) => [`${r.day}|${r.domain}|${r.dimension}|${r.key}`, Number(r.page_views)])),
  ).toEqual(want.visit);

  // Unique counts over the whole period: the merged sketches give exactly the estimate of the true visitor sets.
  for (const d of ['', 'a.test']) {
    const rows = await q<{ s: Uint8Array }>(
      sql`select visitors as s from stat_domain_daily where domain = ${d}`,
    );
    const r = emptyRegisters();
    for (const v of want.uniq.get(`dom|${d}`) ?? []) add(r, hash64(v));
    expect(estimateStored(rows.map((x) => x.s))).toBe(estimate(r));
  }
  await expectBlocksMatch();
}

/**
 * The pre-merged blocks (migration 0021) hold exactly the merge of their days' daily sketches, and the daily rows
 * carry their sketches' estimates.
 */
async function expectBlocksMatch() {
  const daily = await q<any>(
    sql`select day::text as day, domain, visitors, addresses, visitors_n, addresses_n from stat_domain_daily`,
  );
  for (const r of daily) {
    expect(r.visitors_n).toBe(estimateStored([r.visitors]));
    expect(r.addresses_n).toBe(estimateStored([r.addresses]));
  }
  const blocks = await q<any>(
    sql`select level, start::text as start, domain, visitors, addresses from stat_domain_blocks`,
  );
  const want = new Set<string>();
  for (const r of daily)
    for (let level = 1; level <= MAX_LEVEL; level++)
      want.add(`${level}|${blockStart(r.day, level)}|${r.domain}`);
  expect(new Set(blocks.map((b) => `${b.level}|${String(b.start).slice(0, 10)}|${b.domain}`))).toEqual(want);
  for (const b of blocks) {
    const days = daily.filter(
      (r) => r.domain === b.domain && blockStart(r.day, Number(b.level)) === String(b.start).slice(0, 10),
    );
    for (const col of ['visitors', 'addresses'])
      expect(Buffer.from(b[col])).toEqual(
        Buffer.from(encode(merge(days.map((d) => new Uint8Array(d[col]))))),
      );
  }
}

/** The domains report read through the blocks equals the report merging every day's sketches. */
async function expectReportsThroughBlocks() {
  const everyDay = { ...REPORTS.domains, blocks: undefined, estimates: undefined };
  for (const [from, to] of [
    [DAYS[0], DAYS[2]],
    ['2026-05-20', DAYS[1]],
  ]) {
    const query = {
      tenant: TENANT,
      period: { from, to },
      scope: [],
      sort: 'visitors',
      order: 'desc' as const,
      page: 1,
      pageSize: 10,
      compare: true,
    };
    const [fast, slow] = [
      await runReport(database.db, REPORTS.domains, query),
      await runReport(database.db, everyDay, query),
    ];
    expect(fast).toEqual(slow);
    expect(await runReport(database.db, REPORTS.domains, { ...query, sort: 'pageViews' })).toEqual(
      await runReport(database.db, everyDay, { ...query, sort: 'pageViews' }),
    );
  }
}

describe('the rollup equals a recount from raw events', () => {
  test('for random event sets, interrupted runs, crashed days, repeated batches and repeated rollups', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbEvent, { minLength: 1, maxLength: 120 }),
        fc.array(arbEvent, { maxLength: 60 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        async (first, second, stopAfter, crash) => {
          await reset();
          const batch1 = first.map(toEvent);
          await ingest(database.db, TENANT, batch1, { now: NOW, clientAddress: '10.0.0.1' });
          // stop halfway
          await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT, stopAfter });
          // a crash in the middle of a day's recompute: rolled back, the day stays marked
          if (crash) {
            await database.db
              .transaction(async (tx) => {
                await tx.execute(sql`delete from stat_fold_queue where day = ${DAYS[1]}::date`);
                // on PostgreSQL the counts and the attribution commit on their own connections before the crash
                await rollupDay(
                  tx,
                  TENANT,
                  DAYS[1],
                  { timeZone: 'Asia/Shanghai', attributionDays: 30 },
                  par() ? database.db : undefined,
                );
                throw new Error('crash');
              })
              .catch(() => {});
          }
          // the first batch again (a retry) and more events
          const retry = await ingest(database.db, TENANT, [...batch1, ...second.map(toEvent)], {
            now: NOW,
            clientAddress: '10.0.0.1',
          });
          expect(retry.duplicates).toBe(batch1.length);
          await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
          await expectRollupsMatch();
          // every day rolled up once more changes nothing, attribution (issue #16) included
          const attribution = await attributionTables();
          await queueWhole(database.db, TENANT, DAYS);
          await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
          await expectRollupsMatch();
          expect(await attributionTables()).toEqual(attribution);
          await expectReportsThroughBlocks();
          await expectAttributedBlocksMatch();
          await expectAgentsStatThroughBlocks();
          // The migration's rebuild from the daily rows (also the bench's seed) gives the same blocks.
          await database.db.execute(sql`select zg_attributed_rebuild()`);
          await expectAttributedBlocksMatch();
        },
      ),
      { numRuns: 6 },
    );
    // A fixed amount of work (six runs of several rollups): the limit only guards against a hang, on a busy machine too.
  }, 180_000);
});

const SUMMED = ATTRIBUTED_SUMS;

/**
 * The attributed blocks (migration 0072) hold exactly the sums and the merged sketches of their days' rows (a block
 * without a row counting as zeros and empty sketches), and no block of a channel without days in it; the day totals
 * are the daily rows summed over every channel but ''.
 */
async function expectAttributedBlocksMatch() {
  const daily =
    await q<any>(sql`select day::text as day, channel, ${sql.raw(SUMMED.join(', '))}, visitors, addresses
    from stat_attributed_daily`);
  const key = (b: any) => `${b.level}|${String(b.start).slice(0, 10)}|${b.channel}`;
  const sums = new Map(
    (
      await q<any>(sql`select level, start::text as start, channel, ${sql.raw(SUMMED.join(', '))}
        from stat_attributed_blocks`)
    ).map((b) => [key(b), b]),
  );
  const sketches = new Map(
    (
      await q<any>(sql`select level, start::text as start, channel, visitors, addresses
        from stat_attributed_block_sketches`)
    ).map((b) => [key(b), b]),
  );
  const want = new Map<string, any[]>();
  for (const r of daily)
    for (let level = 1; level <= MAX_LEVEL; level++) {
      const k = key({ level, start: blockStart(r.day, level), channel: r.channel });
      want.set(k, [...(want.get(k) ?? []), r]);
    }
  for (const k of [...sums.keys(), ...sketches.keys()]) expect(want.has(k), k).toBe(true);
  for (const [k, days] of want) {
    for (const col of SUMMED)
      expect(Number(sums.get(k)?.[col] ?? 0), `${col} of ${k}`).toBe(
        days.reduce((s, d) => s + Number(d[col]), 0),
      );
    for (const col of ['visitors', 'addresses'])
      expect(Buffer.from(sketches.get(k)?.[col] ?? new Uint8Array(0)), `${col} of ${k}`).toEqual(
        Buffer.from(encode(merge(days.map((d) => new Uint8Array(d[col]))))),
      );
  }
  const totals =
    await q<any>(sql`select day::text as day, page_views, signups, payers, recharges, recharge_amount
    from stat_attributed_totals order by day`);
  const byDay = new Map<string, number[]>();
  for (const r of daily.filter((d) => d.channel !== '')) {
    const t = byDay.get(r.day) ?? [0, 0, 0, 0, 0];
    ['page_views', 'signups', 'payers', 'recharges', 'recharge_amount'].forEach((c, i) => {
      t[i] += Number(r[c]);
    });
    byDay.set(r.day, t);
  }
  expect(
    totals.map((t) => [
      t.day,
      ...['page_views', 'signups', 'payers', 'recharges', 'recharge_amount'].map((c) => Number(t[c])),
    ]),
  ).toEqual([...byDay.entries()].sort().map(([d, t]) => [d, ...t]));
}

/** The agents' stat read through the blocks gives the figures every day's rows give (agent1 is an agent, agent2 not). */
async function expectAgentsStatThroughBlocks() {
  await database.db.execute(sql`insert into agents (tenant, name, channel, model, rate)
    values (${TENANT}, 'prop agent', 'agent1', 'share', 10) on conflict do nothing`);
  for (const [from, to] of [
    [DAYS[0], DAYS[2]],
    ['2026-05-20', DAYS[1]],
    [DAYS[2], DAYS[2]],
  ]) {
    const stat = await allAgentsStat(database.db, { tenant: TENANT, period: { from, to }, today: DAYS[2] });
    const rows =
      await q<any>(sql`select day::text as day, channel, page_views, signups, payers, recharge_amount,
      shared_address, visitors, addresses from stat_attributed_daily where day between ${from}::date and ${to}::date`);
    const own = rows.filter((r) => r.channel === 'agent1');
    const agent = stat.list.find((r) => r.channel === 'agent1')!;
    expect(agent).toMatchObject({
      visitors: estimateStored(own.map((r) => new Uint8Array(r.visitors))),
      addresses: estimateStored(own.map((r) => new Uint8Array(r.addresses))),
      pageViews: own.reduce((s, r) => s + Number(r.page_views), 0),
      signups: own.reduce((s, r) => s + Number(r.signups), 0),
      payers: own.reduce((s, r) => s + Number(r.payers), 0),
    });
    expect(agent.quality.sharedAddress).toBe(own.reduce((s, r) => s + Number(r.shared_address), 0));
    // The series counts agents' channels only: agent2 (no agent) and '' are left out.
    expect(stat.series.map((d) => [d.date, d.pageViews, d.signups])).toEqual(
      stat.series.map((d) => {
        const day = own.filter((r) => r.day === d.date);
        return [
          d.date,
          day.reduce((s, r) => s + Number(r.page_views), 0),
          day.reduce((s, r) => s + Number(r.signups), 0),
        ];
      }),
    );
  }
}

/** What the attribution part of the rollup keeps (issue #16), in a stable order. */
async function attributionTables() {
  const rows = async (q: ReturnType<typeof sql>) =>
    rowsOf<Record<string, unknown>>(await database.db.execute(q));
  return {
    touches: await rows(
      sql`select visitor_hash::text, day::text, channel, at from stat_touches order by 1, 2, 3`,
    ),
    signups: await rows(sql`select day::text, id, channel, active from stat_signups order by 1, 2`),
    payers: await rows(sql`select visitor_hash::text, day::text, channel from stat_payers order by 1`),
    daily: await rows(
      sql`select day::text, channel, page_views, signups, payers, recharges, recharge_amount::text, visitors, addresses
        from stat_attributed_daily order by 1, 2`,
    ),
  };
}

describe('the day read in chunks', () => {
  test('every chunk size gives the same rows: one chunk, a size the events fill exactly, a few events a chunk', async () => {
    await reset();
    const events = fc.sample(arbEvent, 120).map((g) => toEvent({ ...g, day: 1 }));
    const got = await ingest(database.db, TENANT, events, { now: NOW, clientAddress: '1.1.1.1' });
    const stored = got.accepted;
    expect(stored).toBeGreaterThan(100);
    const roll = (size: number) =>
      database.db.transaction(async (tx) => {
        const fold = new DayFold(TENANT, DAYS[1], 'Asia/Shanghai');
        await fold.read(tx, { fetchSize: size });
        await fold.write(tx, { whole: true });
      });
    await roll(10_000);
    const whole = await figureRows();
    expect(whole.stat_keyword_daily.length).toBeGreaterThan(0);
    for (const size of [stored, 7, 1]) {
      await roll(size);
      expect(await figureRows()).toEqual(whole);
    }
  });
});

describe('large sketches', () => {
  test('a key of thousands of visitors is stored as SQL would (dense past a third of the registers, sparse below)', async () => {
    await reset();
    // a.test: 8,000 visitors (dense when stored); b.test: 3,000 (built dense, stored sparse); each twice.
    const events = [
      ...Array.from({ length: 8000 }, (_, i) => ({ domain: 'a.test', visitor: `big-${i}` })),
      ...Array.from({ length: 3000 }, (_, i) => ({ domain: 'b.test', visitor: `mid-${i}` })),
    ].flatMap((e, i) =>
      [0, 1].map((k) => ({
        ...toEvent({ ...sample(), day: 1, hour: (i + k) % 24 }),
        domain: e.domain,
        visitor: e.visitor,
      })),
    );
    for (let i = 0; i < events.length; i += 500)
      await ingest(database.db, TENANT, events.slice(i, i + 500), { now: NOW, clientAddress: '1.1.1.1' });
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    const rows = await q<{ domain: string; visitors: Uint8Array; visits: number; page_views: number }>(
      sql`select domain, visitors, visits, page_views from stat_domain_daily where day = ${DAYS[1]}::date`,
    );
    for (const [domain, prefix, n] of [
      ['a.test', 'big', 8000],
      ['b.test', 'mid', 3000],
    ] as const) {
      const r = emptyRegisters();
      for (let i = 0; i < n; i++) add(r, hash64(`${prefix}-${i}`));
      const row = rows.find((x) => x.domain === domain)!;
      expect(Buffer.from(row.visitors)).toEqual(Buffer.from(encode(r)));
      expect([Number(row.visits), Number(row.page_views)]).toEqual([n, 2 * n]);
    }
    expect(rows.find((x) => x.domain === 'a.test')!.visitors.length).toBe(16_384);
    expect(rows.find((x) => x.domain === 'b.test')!.visitors.length % 3).toBe(0);
  }, 120_000);
});

describe('sketches of a fold kept between runs', () => {
  test('a dense sketch is sent again only when it changed, and the stored one follows it', async () => {
    await reset();
    // A handle of its own: the fold it keeps between runs is this test's.
    const { db, seen } = watchedDb(database.db);
    const day = DAYS[2]; // NOW's day: its fold is kept
    let n = 0;
    const send = async (from: number, to: number) => {
      const events = Array.from({ length: to - from }, (_, i) => ({
        ...toEvent({ ...sample(), day: 2, hour: 1 + (n++ % 10) }),
        visitor: `big-${from + i}`,
      }));
      for (let i = 0; i < events.length; i += 500)
        await ingest(database.db, TENANT, events.slice(i, i + 500), { now: NOW, clientAddress: '1.1.1.1' });
    };
    /** The run's characters of parameters of its statements writing stat_domain_daily (a dense sketch: 32,768). */
    const sent = async () => {
      const from = seen.length;
      await runRollup(db, { parallel: par(), now: NOW, defaultTenant: TENANT });
      return seen
        .slice(from)
        .filter((s) => /insert into stat_domain_daily/.test(s.sql))
        .reduce((sum, s) => sum + s.params.reduce<number>((k, p) => k + String(p ?? '').length, 0), 0);
    };
    const stored = async () => {
      const [row] = await q<{ visitors: Uint8Array; page_views: number }>(
        sql`select visitors, page_views from stat_domain_daily where day = ${day}::date and domain = 'a.test'`,
      );
      return { visitors: Buffer.from(row.visitors), pageViews: Number(row.page_views) };
    };
    const sketchOf = (count: number) => {
      const r = emptyRegisters();
      for (let i = 0; i < count; i++) add(r, hash64(`big-${i}`));
      return Buffer.from(encode(r));
    };
    await send(0, 8000);
    expect(await sent()).toBeGreaterThan(2 * 32_768); // the domain's and the site's, dense
    expect(cachedFold(db, TENANT, day)).toBeDefined();
    expect(await stored()).toEqual({ visitors: sketchOf(8000), pageViews: 8000 });
    // The same visitors again: the counts move, the sketches do not, and are not sent.
    await send(0, 8000);
    expect(await sent()).toBeLessThan(2_000);
    expect(await stored()).toEqual({ visitors: sketchOf(8000), pageViews: 16_000 });
    // New visitors: the dense sketch changed, and is sent again.
    await send(8000, 12_000);
    expect(await sent()).toBeGreaterThan(2 * 32_768);
    expect(await stored()).toEqual({ visitors: sketchOf(12_000), pageViews: 20_000 });
    await expectRollupsMatch();
  }, 120_000);
});

describe('one runner at a time', () => {
  test('a runner that finds the advisory lock taken does nothing and says so', async () => {
    if (database.driver !== 'postgres') {
      // PGlite is one connection: there is no second session to hold the lock; the lock is taken and released.
      const r = await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
      expect(r.ran).toBe(true);
      return;
    }
    await reset();
    await ingest(database.db, TENANT, [toEvent({ ...sample(), day: 1 })], {
      now: NOW,
      clientAddress: '1.1.1.1',
    });
    const pg = await import('pg');
    const other = new pg.default.Client({ connectionString: (database as any).url });
    await other.connect();
    await other.query('select pg_advisory_lock(7270772012)');
    const blocked = await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    expect(blocked.ran).toBe(false);
    expect((await q<any>(sql`select * from (${MARKED_DAYS}) m`)).length).toBe(1);
    await other.query('select pg_advisory_unlock(7270772012)');
    await other.end();
    const ran = await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    expect(ran).toMatchObject({ ran: true, days: [{ tenant: TENANT, day: DAYS[1] }] });
  });
});

describe('retention', () => {
  test('raw partitions older than the setting are dropped after their rollup; the rollups stay', async () => {
    await reset();
    await database.db.execute(sql`delete from statistics_settings`);
    await database.db.execute(
      sql`insert into statistics_settings (tenant, data) values (${TENANT}, ${JSON.stringify({ rawRetentionDays: 3 })}::jsonb)`,
    );
    const early = new Date('2026-05-30T04:00:00Z');
    await ingest(
      database.db,
      TENANT,
      [toEventAt('2026-05-29T04:00:00Z'), toEventAt('2026-05-30T03:00:00Z')],
      {
        now: early,
        clientAddress: '1.1.1.1',
      },
    );
    expect((await rawPartitions(database.db)).map((p) => p.day)).toEqual(['2026-05-29', '2026-05-30']);
    // Three days later: 05-31, 06-01 and 06-02 are kept; 05-29 and 05-30 go, after being rolled up.
    const later = new Date('2026-06-02T04:00:00Z');
    const r = await runRollup(database.db, { parallel: par(), now: later, defaultTenant: TENANT });
    expect(r.days.map((d) => d.day)).toEqual(['2026-05-29', '2026-05-30']);
    expect(r.droppedPartitions).toEqual(['stat_events_p20260529', 'stat_events_p20260530']);
    expect(await rawPartitions(database.db)).toEqual([]);
    const kept = await q<any>(
      sql`select day::text as day, page_views from stat_domain_daily where domain = '' order by day`,
    );
    expect(kept.map((x) => [x.day, Number(x.page_views)])).toEqual([
      ['2026-05-29', 1],
      ['2026-05-30', 1],
    ]);
    // An event older than the retention is refused by the ingestion, naming its time.
    const old = await ingest(database.db, TENANT, [toEventAt('2026-05-30T12:00:00Z')], {
      now: later,
      clientAddress: '1.1.1.1',
    });
    expect(old.rejected).toEqual([
      { index: 0, fields: { time: expect.objectContaining({ key: 'stats.timeRange' }) } },
    ]);
    await database.db.execute(sql`delete from statistics_settings`);
  });
});

describe('retention of every tenant', () => {
  test("a raw day goes only once past every tenant's retention, in each one's time zone, rolled up now or not", async () => {
    await reset();
    await database.db.execute(sql`delete from statistics_settings`);
    const other = TENANT + 7; // not rolled up by the run below: no events of its own
    await database.db.execute(
      sql`insert into statistics_settings (tenant, data) values (${TENANT}, ${JSON.stringify({ rawRetentionDays: 3 })}::jsonb),
        (${other}, ${JSON.stringify({ rawRetentionDays: 3 })}::jsonb)`,
    );
    await database.db.execute(
      sql`insert into system_settings (tenant, data) values (${other}, ${JSON.stringify({ timeZone: 'America/Los_Angeles' })}::jsonb)`,
    );
    await ingest(
      database.db,
      TENANT,
      [toEventAt('2026-05-29T04:00:00Z'), toEventAt('2026-05-30T03:00:00Z')],
      { now: new Date('2026-05-30T04:00:00Z'), clientAddress: '1.1.1.1' },
    );
    // 06-02 04:00 UTC is still 06-01 in Los Angeles: its three days are 05-30 to 06-01, so only 05-29 goes.
    const later = new Date('2026-06-02T04:00:00Z');
    const r = await runRollup(database.db, { parallel: par(), now: later, defaultTenant: TENANT });
    expect(r.droppedPartitions).toEqual(['stat_events_p20260529']);
    // The other tenant keeps ten days once it says so (its site key: it may send events): 05-30 stays a week later.
    await database.db.execute(
      sql`update statistics_settings set data = ${JSON.stringify({ rawRetentionDays: 10 })}::jsonb where tenant = ${other}`,
    );
    await database.db.execute(sql`delete from system_settings where tenant = ${other}`);
    const week = new Date('2026-06-06T04:00:00Z');
    expect(
      (await runRollup(database.db, { parallel: par(), now: week, defaultTenant: TENANT })).droppedPartitions,
    ).toEqual([]);
    // With its settings gone but a site key, it keeps the default (30 days).
    await database.db.execute(sql`delete from statistics_settings where tenant = ${other}`);
    await database.db.execute(
      sql`insert into site_state (tenant, site_key) values (${other}, 'retention-test-key')`,
    );
    const month = new Date('2026-06-20T04:00:00Z');
    expect(
      (await runRollup(database.db, { parallel: par(), now: month, defaultTenant: TENANT }))
        .droppedPartitions,
    ).toEqual([]);
    // Without either, only the default tenant's three days count.
    await database.db.execute(sql`delete from site_state where tenant = ${other}`);
    expect(
      (await runRollup(database.db, { parallel: par(), now: month, defaultTenant: TENANT }))
        .droppedPartitions,
    ).toEqual(['stat_events_p20260530']);
    await database.db.execute(sql`delete from statistics_settings`);
  });
});

describe('touches', () => {
  test('attribution touches older than the kept raw days less the attribution window are pruned by the rollup', async () => {
    await reset();
    await database.db.execute(sql`delete from statistics_settings`);
    await database.db.execute(
      sql`insert into statistics_settings (tenant, data) values (${TENANT}, ${JSON.stringify({ rawRetentionDays: 3, attributionDays: 2 })}::jsonb)`,
    );
    const days = ['2026-05-28', '2026-05-29', '2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02'];
    await database.db.execute(sql`insert into stat_touches (tenant, visitor_hash, day, channel, at)
      select ${TENANT}, 7, d::date, 'agent1', d::date + interval '1 hour' from unnest(${sql.param(days)}::text[]) d`);
    // 06-04 in Shanghai: raw days from 06-02 on are kept (3 days), so a rollup may still read touches from 05-31 on.
    await runRollup(database.db, {
      parallel: par(),
      now: new Date('2026-06-04T04:00:00Z'),
      defaultTenant: TENANT,
    });
    const left = await q<{ day: string }>(sql`select day::text as day from stat_touches order by day`);
    expect(left.map((t) => t.day)).toEqual(['2026-05-31', '2026-06-01', '2026-06-02']);
    await database.db.execute(sql`delete from statistics_settings`);
  });
});

describe('visits per hour', () => {
  test('each hour counts its visitors, its one-page visitors and its visitors first seen that day', async () => {
    await reset();
    const pv = (day: number, hour: number, visitor: number, domain: Gen['domain'] = 'a.test') =>
      toEvent({ ...sample(), day, hour, visitor, domain });
    // Visitor 1 was seen the day before; visitor 2 is new. In hour 10 visitor 1 views two pages, visitor 2 one;
    // in hour 11 visitor 1 views one more; visitor 2 also views b.test in hour 11.
    await ingest(
      database.db,
      TENANT,
      [pv(0, 9, 1), pv(1, 10, 1), pv(1, 10, 1), pv(1, 10, 2), pv(1, 11, 1), pv(1, 11, 2, 'b.test')],
      { now: NOW, clientAddress: '1.1.1.1' },
    );
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    const rows = await q<any>(sql`select domain, hour, page_views, visits, bounced, new_visitors
      from stat_domain_hourly where day = ${DAYS[1]}::date order by domain, hour`);
    expect(
      rows.map((r) => [r.domain, ...[r.hour, r.page_views, r.visits, r.bounced, r.new_visitors].map(Number)]),
    ).toEqual([
      // the site: hour 10 has visitors 1 (2 pages) and 2 (1 page, new); hour 11 has 1 and 2, one page each
      ['', 10, 3, 2, 1, 1],
      ['', 11, 2, 2, 2, 1],
      ['a.test', 10, 3, 2, 1, 1],
      ['a.test', 11, 1, 1, 1, 0],
      ['b.test', 11, 1, 1, 1, 1],
    ]);
    const days = await q<any>(sql`select domain, page_views, visits, bounced, new_visitors
      from stat_domain_daily where day = ${DAYS[1]}::date order by domain`);
    expect(
      days.map((r) => [r.domain, ...[r.page_views, r.visits, r.bounced, r.new_visitors].map(Number)]),
    ).toEqual([
      ['', 5, 2, 0, 1],
      ['a.test', 4, 2, 1, 1],
      ['b.test', 1, 1, 1, 1],
    ]);
  });
});

describe('a day’s rollup that fails halfway', () => {
  test.each([
    ['the counts', 'stat_keyword_daily'],
    ['the attribution', 'stat_attributed_daily'],
    ['the domains', 'stat_domain_daily'],
  ])('when %s fail, the day stays marked and the next run makes it whole', async (_, table) => {
    await reset();
    const ev = (visitor: number, type: Gen['type']) => toEvent({ ...sample(), day: 1, visitor, type });
    await ingest(database.db, TENANT, [ev(1, 'pageview'), ev(2, 'search')], {
      now: NOW,
      clientAddress: '1.1.1.1',
    });
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    await ingest(database.db, TENANT, [ev(3, 'pageview'), ev(4, 'search')], {
      now: NOW,
      clientAddress: '1.1.1.1',
    });
    await database.db.execute(
      sql.raw(`create function maint_fail() returns trigger language plpgsql as
      $$ begin raise exception 'disk full'; end $$`),
    );
    await database.db.execute(
      sql.raw(
        `create trigger maint_fail before insert on ${table} for each statement execute function maint_fail()`,
      ),
    );
    try {
      await expect(
        runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT }),
      ).rejects.toThrow();
    } finally {
      await database.db.execute(sql.raw(`drop trigger maint_fail on ${table}`));
      await database.db.execute(sql`drop function maint_fail()`);
    }
    expect(await q(sql`select distinct day::text as day from (${MARKED_DAYS}) m`)).toEqual([
      { day: DAYS[1] },
    ]);
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    await expectRollupsMatch();
    expect(await q(sql`select distinct day::text as day from (${MARKED_DAYS}) m`)).toEqual([]);
  });
});

describe('the parts on connections of their own', () => {
  test('a part gives up a lock held too long: the run fails, the day stays marked, the next run rolls it', async () => {
    if (!par()) return; // PGlite: one connection, one transaction, no second half to wait
    await reset();
    const ev = (visitor: number) =>
      toEvent({ ...sample(), day: 1, visitor, type: 'pageview', channel: 'agent1' });
    await ingest(database.db, TENANT, [ev(1)], { now: NOW, clientAddress: '1.1.1.1' });
    // Another session is writing the day's row of the channel, which the attribution's part writes too, and sits idle.
    const pg = await import('pg');
    const other = new pg.default.Client({ connectionString: (database as any).url });
    await other.connect();
    await other.query('begin');
    await other.query(
      `insert into stat_attributed_daily (tenant, day, channel) values (${TENANT}, '${DAYS[1]}', 'agent1')`,
    );
    try {
      // 55P03: the lock was not obtained within lock_timeout (Drizzle's error carries PostgreSQL's as its cause)
      await expect(
        runRollup(database.db, { parallel: true, now: NOW, defaultTenant: TENANT }),
      ).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '55P03' }),
      });
    } finally {
      await other.query('rollback');
      await other.end();
    }
    expect(await q(sql`select distinct day::text as day from (${MARKED_DAYS}) m`)).toEqual([
      { day: DAYS[1] },
    ]);
    await runRollup(database.db, { parallel: true, now: NOW, defaultTenant: TENANT });
    await expectRollupsMatch();
  }, 60_000);
});

describe('the timer’s pace', () => {
  test('a day rolled up in T is rolled up again only T × factor later; meanwhile its mark waits', async () => {
    await reset();
    const pace = new RollupPace(4);
    const pv = (day: number, visitor: number) => toEvent({ ...sample(), day, visitor });
    const views = () => siteViews(DAYS[1]);
    await ingest(database.db, TENANT, [pv(1, 1), pv(1, 2)], { now: NOW, clientAddress: '1.1.1.1' });
    const first = await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT, pace });
    expect(first.days).toEqual([{ tenant: TENANT, day: DAYS[1] }]);

    // At the same instant: the day just rolled up waits (its mark stays); a day never rolled up is due.
    await ingest(database.db, TENANT, [pv(1, 3), pv(0, 4)], { now: NOW, clientAddress: '1.1.1.1' });
    const second = await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT, pace });
    expect(second.days).toEqual([{ tenant: TENANT, day: DAYS[0] }]);
    expect(second.deferred).toEqual([{ tenant: TENANT, day: DAYS[1] }]);
    expect(await views()).toEqual([2]);
    expect(await q(sql`select distinct day::text as day from (${MARKED_DAYS}) m`)).toEqual([
      { day: DAYS[1] },
    ]);

    // An hour later it is due again, and the event that waited is counted.
    const later = new Date(NOW.getTime() + 3_600_000);
    const third = await runRollup(database.db, { parallel: par(), now: later, defaultTenant: TENANT, pace });
    expect(third).toMatchObject({ days: [{ tenant: TENANT, day: DAYS[1] }], deferred: [] });
    expect(await views()).toEqual([3]);

    // Without a pace (`npm run rollup`, the admins' button), every marked day is rolled up at once.
    await ingest(database.db, TENANT, [pv(1, 5)], { now: NOW, clientAddress: '1.1.1.1' });
    expect(
      (await runRollup(database.db, { parallel: par(), now: later, defaultTenant: TENANT })).days,
    ).toHaveLength(1);
    expect(await views()).toEqual([4]);
  });
});

describe('the planner’s statistics', () => {
  test('the rollup analyses the day’s partition and the tables it reads when they are new or have grown', async () => {
    await reset();
    const size = async (t: string) =>
      (await q<{ n: number }>(sql`select reltuples::int as n from pg_class where relname = ${t}`))[0]?.n;
    const events = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        toEvent({ ...sample(), day: 1, visitor: from + i, channel: 'agent1' }),
      );
    await ingest(database.db, TENANT, events(0, 3000), { now: NOW, clientAddress: '1.1.1.1' });
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    // Never analysed, reltuples is -1 and a plan estimates one row; autovacuum is off here (and PGlite has none).
    // The partition is analysed before the day's statements; the touches and first-seen rows the run wrote, after.
    expect(await size('stat_events_p20260602')).toBe(3000);
    expect(await size('stat_touches')).toBe(3000);
    expect(await size('stat_visitors')).toBe(6000);
    // Grown by a fifth and more: analysed again before the day is rolled up again.
    await ingest(database.db, TENANT, events(3000, 2000), { now: NOW, clientAddress: '1.1.1.1' });
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    expect(await size('stat_events_p20260602')).toBe(5000);
    expect(await size('stat_touches')).toBe(5000);
    // Grown by less: left as it is.
    await ingest(database.db, TENANT, events(5000, 20), { now: NOW, clientAddress: '1.1.1.1' });
    await runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    expect(await size('stat_events_p20260602')).toBe(5000);
  });
});

function sample(): Gen {
  return {
    day: 0,
    hour: 1,
    type: 'pageview',
    domain: 'a.test',
    path: '/',
    visitor: 1,
    keyword: 'none',
    results: 1,
    movie: 0,
    channel: '',
  };
}
function toEventAt(time: string) {
  return { ...toEvent(sample()), time };
}

describe('return visits', () => {
  test('a signup’s return days do not depend on the order its days are rolled up', async () => {
    await reset();
    const base: Omit<Gen, 'day' | 'type' | 'visitor'> = {
      hour: 10,
      domain: 'a.test',
      path: '/',
      keyword: 'love',
      results: 0,
      movie: 0,
      channel: '',
    };
    await ingest(
      database.db,
      TENANT,
      [
        toEvent({ ...base, day: 0, type: 'signup', visitor: 7 }),
        toEvent({ ...base, day: 1, type: 'pageview', visitor: 7 }),
      ],
      { now: NOW, clientAddress: '10.0.0.1' },
    );
    // the later day first: its return visit is rolled up before the signup it returns to exists
    const roll = (day: string) =>
      database.db.transaction((tx) =>
        rollupDay(tx, TENANT, day, { timeZone: 'Asia/Shanghai', attributionDays: 30 }),
      );
    await roll(DAYS[1]);
    await roll(DAYS[0]);
    const rows = await q<{ active: number }>(sql`select active from stat_signups where tenant = ${TENANT}`);
    expect(rows.map((r) => Number(r.active))).toEqual([2]); // back one day after signing up
  });
});

describe('the incremental rollup (migration 0124)', () => {
  const rollAll = () => runRollup(database.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
  /** `hashed`: hashed by the server (the md5 Node gives it): a batch of one day is then folded as it is stored. */
  const send = (events: object[], hashed = false) =>
    ingest(database.db, TENANT, events, { now: NOW, clientAddress: '10.0.0.1', ...(hashed ? { md5 } : {}) });
  /** A page view of today (DAYS[2]) by visitor `visitor`. */
  const pv = (visitor: number, domain: Gen['domain'] = 'a.test') =>
    toEvent({ ...sample(), day: 2, visitor, domain });
  const views = () => siteViews(DAYS[2]);

  test('batches folded one run at a time into the kept day give the rows of the day recomputed whole, attribution included', async () => {
    let folded = 0;
    let ahead = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            events: fc.array(arbEvent, { minLength: 1, maxLength: 40 }),
            oneDay: fc.boolean(), // all of its first event's day
            hashed: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(arbEvent, { minLength: 1, maxLength: 20 }),
        async (sent, today) => {
          await reset();
          let last: Record<string, number> = {};
          // Today's fold is kept after the first run (its first event is today's), and the last batch, of today and
          // hashed, is folded into it as it is stored.
          const [{ events: first, ...flags }, ...rest] = sent;
          const all = [
            { ...flags, events: [{ ...first[0], day: 2 }, ...first.slice(1)] },
            ...rest,
            { events: today.map((e) => ({ ...e, day: 2 })), oneDay: true, hashed: true },
          ];
          for (const { events: gen, oneDay, hashed } of all) {
            const batch = oneDay ? gen.map((e) => ({ ...e, day: gen[0].day })) : gen;
            const events = batch.map(toEvent);
            const before = DAYS.map((d) => cachedFold(database.db, TENANT, d)?.foldedAhead ?? 0);
            await send(events, hashed);
            ahead += DAYS.reduce(
              (n, d, i) => n + (cachedFold(database.db, TENANT, d)?.foldedAhead ?? 0) - before[i],
              0,
            );
            last = {};
            for (const e of batch) last[DAYS[e.day]] = (last[DAYS[e.day]] ?? 0) + 1;
            await rollAll();
          }
          // Today and yesterday were kept: each holds every event of its day once, and the last run read only the
          // last batch's events, or the day whole when it was marked so (a visitor's first day moved before it).
          for (const day of DAYS.slice(1)) {
            const fold = cachedFold(database.db, TENANT, day);
            const [{ n }] = await q<{ n: number }>(
              sql`select count(*)::int as n from stat_events where day = ${day}::date`,
            );
            if (!n) continue; // (a fold kept from an earlier run of the property: its day had no events here)
            expect(fold?.events, day).toBe(n);
            if (!last[day]) continue;
            expect([last[day], n], day).toContain(fold!.lastRead);
            if (fold!.lastRead < n) folded++;
          }
          await expectRollupsMatch();
          const rows = await figureRows();
          const attribution = await attributionTables();
          // Every day recomputed whole from its raw events: the same rows, new visitors and sketches included.
          await queueWhole(database.db, TENANT, DAYS);
          await rollAll();
          expect(await figureRows()).toEqual(rows);
          expect(await attributionTables()).toEqual(attribution);
          await expectAttributedBlocksMatch();
        },
      ),
      { numRuns: 8 },
    );
    expect(folded).toBeGreaterThan(0); // the runs did fold batches alone
    expect(ahead).toBeGreaterThan(0); // and batches were folded as they were stored
  }, 180_000);

  test('a run whose visitors and addresses were all seen that day leaves the blocks unwritten; a new visitor writes its domain’s', async () => {
    await reset();
    const written = async () =>
      new Map(
        (
          await q<{ k: string; x: string }>(
            sql`select level || '|' || domain as k, xmin::text as x from stat_domain_blocks`,
          )
        ).map((r) => [r.k, r.x]),
      );
    await send([pv(1), pv(2), pv(1, 'b.test')]);
    await rollAll();
    const first = await written();
    expect(first.size).toBe(3 * MAX_LEVEL); // a.test, b.test and the site
    await send([pv(2), pv(1)]); // seen that day, from the same address
    await rollAll();
    expect(cachedFold(database.db, TENANT, DAYS[2])?.lastRead).toBe(2); // folded alone
    expect(await written()).toEqual(first);
    await send([pv(3)]); // new: a.test's blocks and the site's change, b.test's do not
    await rollAll();
    const after = await written();
    for (const [k, x] of after) expect(x === first.get(k), k).toBe(k.endsWith('|b.test'));
    await expectBlocksMatch();
  });

  test('a day another runner rolled up since is read whole: the kept fold lacks what that runner folded', async () => {
    await reset();
    await send([pv(1), pv(2)]);
    await rollAll();
    expect(cachedFold(database.db, TENANT, DAYS[2])?.events).toBe(2);
    // Another runner (another instance: a fold of its own) takes the next batch and rolls the day.
    await send([pv(3)]);
    await database.db.transaction(async (tx) => {
      const batches = rowsOf<{ batch: string }>(
        await tx.execute(sql`delete from stat_fold_queue where day = ${DAYS[2]}::date returning batch`),
      ).map((b) => Number(b.batch));
      await rollupDay(tx, TENANT, DAYS[2], { timeZone: 'Asia/Shanghai', attributionDays: 30 }, undefined, {
        batches,
      });
    });
    expect(await views()).toEqual([3]);
    await send([pv(4)]);
    await rollAll();
    expect(await views()).toEqual([4]);
    expect(cachedFold(database.db, TENANT, DAYS[2])?.lastRead).toBe(4); // read whole
    await send([pv(5)]);
    await rollAll();
    expect(await views()).toEqual([5]);
    expect(cachedFold(database.db, TENANT, DAYS[2])?.lastRead).toBe(1); // its own fold again
    await expectRollupsMatch();
  });

  test('a day read whole leaves out the batches queued after the run took the queue: the next fold takes them', async () => {
    await reset();
    await send([pv(1), pv(2)]);
    await database.db.transaction(async (tx) => {
      const batches = rowsOf<{ batch: string }>(
        await tx.execute(sql`delete from stat_fold_queue where day = ${DAYS[2]}::date returning batch`),
      ).map((b) => Number(b.batch));
      // A batch stored (and queued) after the queue was taken, before the day's events are read: a copy of an event
      // under a new id, as the ingestion's statement writes it (the ingestion itself runs on the database, not in a
      // transaction).
      const cols = `tenant, day, type, at, domain, path, referrer, device, browser, os, country, province, address,
        address_hash, address_reg, visitor, visitor_hash, visitor_reg, channel, object_type, object_id, keyword, results,
        amount`;
      await tx.execute(
        sql.raw(`with b as (select nextval('stat_event_batches') as n),
          e as (insert into stat_events (id, batch, ${cols})
            select id || '-late', (select n from b), ${cols} from stat_events where day = '${DAYS[2]}' limit 1
            returning tenant, day, batch)
          insert into stat_fold_queue (tenant, day, batch) select tenant, day, batch from e`),
      );
      await rollupDay(tx, TENANT, DAYS[2], { timeZone: 'Asia/Shanghai', attributionDays: 30 }, undefined, {
        batches,
      });
    });
    expect(await views()).toEqual([2]);
    expect(await q(sql`select distinct day::text as day from stat_fold_queue`)).toEqual([{ day: DAYS[2] }]);
    await rollAll();
    expect(await views()).toEqual([3]);
  });

  /**
   * `database.db` seen through a proxy (its transactions too) that, once armed, calls `after` when a statement whose
   * text holds `marker` has run (a batch's insert, a run's take of the queue): for interleavings a busy server meets by
   * chance. Folds and the batches being stored are kept per handle, so a test uses the proxy for everything.
   */
  const interleaved = (marker: string, after: () => Promise<void>) => {
    const dialect = new PgDialect();
    let state: 'idle' | 'armed' | 'fired' = 'idle';
    const wrap = <T extends object>(x: T): T =>
      new Proxy(x, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (key === 'execute')
            return async (query: SQL) => {
              const out = await (value as (q: SQL) => Promise<unknown>).call(target, query);
              if (state === 'armed' && dialect.sqlToQuery(query).sql.includes(marker)) {
                state = 'fired';
                await after();
              }
              return out;
            };
          if (key === 'transaction')
            return (run: (tx: object) => Promise<unknown>, ...rest: unknown[]) =>
              (value as (...a: unknown[]) => Promise<unknown>).call(
                target,
                (tx: object) => run(wrap(tx)),
                ...rest,
              );
          return value;
        },
      });
    return {
      db: wrap(database.db as Db),
      arm: () => {
        state = 'armed';
      },
      fired: () => state === 'fired',
    };
  };

  test('a batch a run takes from the queue before its own process folds it is folded once, by the run', async () => {
    await reset();
    const x = interleaved('insert into stat_fold_queue', async () => {
      await roll(); // the batch is committed: this run takes it and reads it
    });
    const roll = () => runRollup(x.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
    const store = (events: object[]) =>
      ingest(x.db, TENANT, events, { now: NOW, clientAddress: '10.0.0.1', md5 });
    await store([pv(1), pv(2)]);
    await roll(); // the day's fold is kept
    const fold = cachedFold(x.db, TENANT, DAYS[2])!;
    expect(fold.foldedAhead).toBe(0);
    x.arm();
    await store([pv(3)]); // the run in between takes it; its process then leaves it to the run
    expect(x.fired()).toBe(true);
    expect(cachedFold(x.db, TENANT, DAYS[2])).toBe(fold);
    expect([fold.events, fold.foldedAhead]).toEqual([3, 0]);
    expect(await views()).toEqual([3]);
    await store([pv(4)]); // folded as it is stored
    expect([fold.events, fold.foldedAhead]).toEqual([4, 1]);
    await roll();
    expect(fold.lastRead).toBe(1);
    expect(await views()).toEqual([4]);
    await expectRollupsMatch();
  });

  test.runIf(onPostgres)(
    'a batch stored while a run has its day out waits, and is folded into the day once the run puts it back',
    async () => {
      await reset();
      const x = interleaved('delete from stat_fold_queue', async () => {
        // the run took the queue: this batch is not among what it reads
        expect((await store([pv(3)])).accepted).toBe(1);
      });
      const roll = () => runRollup(x.db, { parallel: true, now: NOW, defaultTenant: TENANT });
      const store = (events: object[]) =>
        ingest(x.db, TENANT, events, { now: NOW, clientAddress: '10.0.0.1', md5 });
      await store([pv(1)]);
      await roll();
      const fold = cachedFold(x.db, TENANT, DAYS[2])!;
      await store([pv(2)]); // ahead
      x.arm();
      // Stores pv(3) midway: held, then folded into the day's fold as the run puts it back. The run does not roll the
      // day again for it: it stays queued for the next run, which finds it folded already.
      const run = await roll();
      expect(x.fired()).toBe(true);
      expect(run.days).toEqual([{ tenant: TENANT, day: DAYS[2] }]);
      expect(run.deferred).toEqual([{ tenant: TENANT, day: DAYS[2] }]);
      expect(cachedFold(x.db, TENANT, DAYS[2])).toBe(fold);
      expect([fold.events, fold.foldedAhead, fold.lastRead]).toEqual([3, 2, 1]);
      expect(await views()).toEqual([2]);
      const next = await roll();
      expect(next.days).toEqual([{ tenant: TENANT, day: DAYS[2] }]);
      expect([fold.events, fold.foldedAhead, fold.lastRead]).toEqual([3, 2, 1]);
      expect(await views()).toEqual([3]);
      await expectRollupsMatch();
    },
  );

  test('batches folded as they are stored give the rows of the day read whole, in any time zone', async () => {
    // Days with a clock change (New York's and Lord Howe's half hour), and a zone half an hour off UTC.
    const zones = [
      { timeZone: 'America/New_York', day: '2026-11-01' },
      { timeZone: 'Australia/Lord_Howe', day: '2026-10-04' },
      { timeZone: 'Asia/Kolkata', day: '2026-06-03' },
      { timeZone: 'Asia/Shanghai', day: '2026-06-03' },
    ];
    const agents = [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
      '',
    ];
    const regions: Record<string, { country: string; province: string }> = {
      '1.1.1.1': { country: '中国', province: '广东' },
      '2.2.2.2': { country: 'China', province: 'unknown' },
      '3.3.3.3': { country: 'Japan', province: 'Tokyo' },
    };
    const arbTimed = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      type: fc.constantFrom('pageview', 'pageview', 'search', 'recharge', 'play'),
      visitor: fc.integer({ min: 0, max: 8 }),
      ip: fc.constantFrom(...Object.keys(regions)),
      ua: fc.constantFrom(...agents),
      cents: fc.integer({ min: 1, max: 999_999 }),
      results: fc.integer({ min: 0, max: 3 }),
      channel: fc.constantFrom('', 'agent1'),
    });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...zones),
          fc.array(fc.array(arbTimed, { minLength: 1, maxLength: 30 }), { minLength: 2, maxLength: 4 }),
          async ({ timeZone, day }, batches) => {
            await reset();
            await database.db.execute(sql`insert into system_settings (tenant, data) values (${TENANT}, ${{ timeZone }})
              on conflict (tenant) do update set data = excluded.data`);
            const start = dayStart(day, timeZone).getTime();
            const length = dayStart(addDays(day, 1), timeZone).getTime() - start;
            const now = new Date(start + length); // the day is yesterday, still kept
            const event = (g: (typeof batches)[number][number]) => ({
              id: `tz-evt-${++seq}`,
              type: g.type,
              time: new Date(start + Math.floor(g.at * length)).toISOString(),
              domain: 'a.test',
              path: '/',
              visitor: `v${g.visitor}`,
              ip: g.ip,
              ua: g.ua,
              channel: g.channel || undefined,
              ...(g.type === 'search' ? { keyword: 'k', results: g.results } : {}),
              ...(g.type === 'recharge' ? { amount: g.cents / 100 } : {}),
              ...(g.type === 'play' ? { object: { type: 'movie', id: 1 } } : {}),
            });
            const opts = { now, clientAddress: '', md5, region: (ip: string) => regions[ip] };
            const roll = () => runRollup(database.db, { parallel: par(), now, defaultTenant: TENANT });
            const fold = () => cachedFold(database.db, TENANT, day);
            for (const [i, batch] of batches.entries()) {
              await ingest(database.db, TENANT, batch.map(event), opts);
              if (i === 0) await roll(); // read whole: then kept
            }
            expect(fold()?.foldedAhead).toBe(batches.slice(1).reduce((n, b) => n + b.length, 0));
            await roll();
            const rows = await figureRows();
            await queueWhole(database.db, TENANT, [day]);
            await roll();
            expect(fold()?.foldedAhead).toBe(0); // read whole
            expect(await figureRows()).toEqual(rows);
          },
        ),
        { numRuns: 12 },
      );
    } finally {
      await database.db.execute(sql`delete from system_settings where tenant = ${TENANT}`);
    }
  }, 180_000);

  test('the hour of a stored event is its wall clock’s, also in a quarter hour of UTC in which the hour turns', () => {
    // Shanghai kept local mean time (UTC+8:05:43) until 1901: its hour turned 5 min 43 s before a quarter hour of UTC.
    const times = ['1900-06-01T07:50:00Z', '1900-06-01T07:58:00Z'];
    const hours = times.map((t) => hourOf(new Date(t), 'Asia/Shanghai'));
    expect(hours).toEqual([15, 16]);
    const fold = new DayFold(TENANT, '1900-06-01', 'Asia/Shanghai');
    const row = (at: string, i: number): EventRow => ({
      ...{
        day: '1900-06-01',
        id: `old-${i}`,
        type: 'pageview',
        at,
        ms: Date.parse(at),
        domain: 'a.test',
        path: '/',
        referrer: '',
      },
      ...{
        device: '',
        browser: '',
        os: '',
        country: 'unknown',
        province: 'unknown',
        address: '',
        visitor: `v${i}`,
      },
      ...{ channel: '', objectType: '', objectId: 0, keyword: '', results: null, amount: null },
      ...{ visitorHash: `${i}`, visitorReg: i, addressHash: '0', addressReg: 0 },
    });
    fold.stored(1, times.map(row));
    expect([...fold.site.pageViews.entries()].filter(([, n]) => n > 0).map(([h]) => h)).toEqual(hours);
  });

  test('a kept fold goes once its day is older than yesterday', async () => {
    await reset();
    await send([toEvent({ ...sample(), day: 2, visitor: 1 })]);
    await rollAll();
    expect(cachedFold(database.db, TENANT, DAYS[2])).toBeDefined();
    const tomorrow = new Date(NOW.getTime() + 86_400_000);
    await runRollup(database.db, { parallel: par(), now: tomorrow, defaultTenant: TENANT });
    expect(cachedFold(database.db, TENANT, DAYS[2])).toBeDefined(); // yesterday: late events still come
    const later = new Date(NOW.getTime() + 2 * 86_400_000);
    await runRollup(database.db, { parallel: par(), now: later, defaultTenant: TENANT });
    expect(cachedFold(database.db, TENANT, DAYS[2])).toBeUndefined();
  });

  /** A page view of a.test on DAYS[day] by visitor `visitor`. */
  const pvOn = (day: number, visitor: number) => toEvent({ ...sample(), day, visitor, domain: 'a.test' });
  /** a.test's new visitors on `day`, as stored. */
  const fresh = async (day: string) =>
    (
      await q<{ n: number }>(
        sql`select new_visitors as n from stat_domain_daily where day = ${day}::date and domain = 'a.test'`,
      )
    ).map((r) => Number(r.n));

  test('a visitor seen on an earlier day late moves its first day there, and the later day counts it new no more', async () => {
    await reset();
    await send([pvOn(2, 1), pvOn(2, 2)]);
    await rollAll();
    expect(await fresh(DAYS[2])).toEqual([2]);
    // Visitor 1's page view of the day before arrives late: it was new that day, not on the next.
    await send([pvOn(1, 1)]);
    const run = await rollAll();
    expect(run.days).toEqual([
      { tenant: TENANT, day: DAYS[1] },
      { tenant: TENANT, day: DAYS[2] },
    ]);
    expect(await fresh(DAYS[1])).toEqual([1]);
    expect(await fresh(DAYS[2])).toEqual([1]);
    // The later day was recomputed whole, and folds its next batch into what it kept.
    await send([pvOn(2, 3)]);
    await rollAll();
    expect(await fresh(DAYS[2])).toEqual([2]);
    expect(cachedFold(database.db, TENANT, DAYS[2])?.lastRead).toBe(1);
  });

  // PostgreSQL: the batch is stored while the run's transaction is open (PGlite has one connection).
  test.runIf(onPostgres)(
    'a day rolled in a run and marked whole later in it (a visitor of it seen earlier) is rolled again in that run',
    async () => {
      await reset();
      // Visitor 1's page view of the day before arrives while the run rolls today: the run's next pass rolls the day
      // before, which moves the visitor's first day there and marks today whole; the pass after rolls today again.
      const x = interleaved('delete from stat_fold_queue', async () => {
        await ingest(x.db, TENANT, [pvOn(1, 1)], { now: NOW, clientAddress: '10.0.0.1' });
      });
      await ingest(x.db, TENANT, [pvOn(2, 1), pvOn(2, 2)], { now: NOW, clientAddress: '10.0.0.1' });
      x.arm();
      const run = await runRollup(x.db, { parallel: par(), now: NOW, defaultTenant: TENANT });
      expect(x.fired()).toBe(true);
      expect(run.days).toEqual([
        { tenant: TENANT, day: DAYS[2] },
        { tenant: TENANT, day: DAYS[1] },
        { tenant: TENANT, day: DAYS[2] },
      ]);
      expect(run.deferred).toEqual([]);
      expect(await fresh(DAYS[1])).toEqual([1]);
      expect(await fresh(DAYS[2])).toEqual([1]);
      await expectRollupsMatch();
    },
  );
});
