import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { addDays } from '../../common/period';
import type { Logger } from '../../server/core/logger';
import type { Db } from '../../server/db/types';
import { allAgentsStat } from '../../server/modules/agents/stat';
import { WARM_FOR_MS, warmReads } from '../../server/modules/statistics/warm-reads';
import { startRollupTimer } from '../../server/node/rollup';
import { adFixture, createAd, material } from './ad-helpers';
import { startApi, type TestApi } from './harness';
import { event, rollup, siteSender, watchedDb } from './stats-helpers';

/**
 * Issues #13, #16 (and #12's kept reports): reads kept warm (warm-reads.ts, migration 0123). The report routes
 * remember what operators read; after each rollup run the timer reads it again, its period moved to the current day,
 * so that the operator's next read finds its answer kept: it reads no rollup row at all. Without the warm-up, the same
 * next read reads the rollups (each test shows that too, so that it can tell).
 */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;
let watched: ReturnType<typeof watchedDb>;
let adId = 0;
const TODAY = '2026-06-01'; // the harness clock, 08:00 UTC: 16:00 in Asia/Shanghai

beforeAll(async () => {
  api = await startApi(
    {},
    {
      wrapDb: (db) => {
        watched = watchedDb(db as unknown as Db);
        return watched.db as unknown as typeof db;
      },
    },
  );
  admin = await api.login();
  send = await siteSender(api, admin);
  const r = await api.call('POST', '/app/admin/agents', {
    token: admin,
    body: { name: 'agent wr', channel: 'wr-a', model: 'share', rate: 10 },
  });
  expect(r.body.code).toBe(20000);
  const fx = await adFixture(api, admin, 'warm');
  adId = (await createAd(api, admin, material(fx, { startAt: '2026-04-01T00:00:00Z' }))).id;
  const early = [9, 5, 3, 1, 0].flatMap((d, i) => [
    event({ visitor: `wr-v${i}`, channel: 'wr-a', time: `${addDays(TODAY, -d)}T02:00:00Z` }),
    event({ visitor: `wr-v${i}`, type: 'signup', time: `${addDays(TODAY, -d)}T02:10:00Z` }),
    event({
      type: 'ad_impression',
      object: { type: 'ad', id: adId },
      time: `${addDays(TODAY, -d)}T02:20:00Z`,
    }),
  ]);
  expect((await send(early)).body.data.rejected).toEqual([]);
  await rollup(api, admin);
});
afterAll(() => api?.close());

const AGENTS = '/app/admin/agents/stat';
const AD_DAILY = '/app/admin/ad/reports/daily';
const ROLLUPS =
  /stat_attributed_(daily|blocks|block_sketches)|stat_object_daily|stat_domain_(daily|hourly|blocks)|stat_visit_daily/;

const SHARE = /^select coalesce\(sum\(page_views\), 0\) as n from stat_domain_daily/;
/**
 * Statements a call ran that read rollup rows; but the visits report's share, one domain's page views over the period
 * (`domainPageViews`: one indexed read of that domain's days), which it reads on every read.
 */
async function rollupReads<T>(call: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const mark = watched.seen.length;
  const result = await call();
  return {
    result,
    reads: watched.seen
      .slice(mark)
      .map((s) => s.sql)
      .filter((q) => ROLLUPS.test(q) && !SHARE.test(q)),
  };
}
const get = async (path: string) => {
  const r = await api.call('GET', path, { token: admin });
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  return r.body.data;
};
/** New events for today through the endpoint, then the rollup: every kept answer over today is stale. */
async function newEventsToday(tag: string, time = `${TODAY}T06:00:00Z`) {
  const r = await send([
    event({ visitor: `wr-${tag}`, channel: 'wr-a', time }),
    event({ type: 'ad_impression', object: { type: 'ad', id: adId }, time }),
  ]);
  expect(r.body.data.accepted).toBe(2);
  await rollup(api, admin);
}

test('the reads operators make are remembered, with their period and day', async () => {
  await get(`${AGENTS}?from=${addDays(TODAY, -6)}&to=${TODAY}&pageSize=20`);
  await get(`${AD_DAILY}?from=${addDays(TODAY, -6)}&to=${TODAY}`);
  // Reads that keep nothing are not remembered: one domain's hours, a title search.
  await get(`/app/admin/stats/reports/domain-hours?from=${TODAY}&to=${TODAY}&domain=a.example.com`);
  await get(`/app/admin/stats/reports/movies?from=${TODAY}&to=${TODAY}&q=x`);
  const rows = await api.query<{ report: string; query: string; day: string }>(
    sql`select report, query, day::text as day from report_reads order by report`,
  );
  expect(rows.map((r) => [r.report, JSON.parse(r.query), String(r.day).slice(0, 10)])).toEqual([
    ['ad.daily', { from: addDays(TODAY, -6), to: TODAY }, TODAY],
    ['agents.all', { from: addDays(TODAY, -6), to: TODAY }, TODAY],
  ]);
});

test('after a rollup of today, a read warmed by the timer reads no rollup row; one not warmed reads them', async () => {
  const agents = `${AGENTS}?from=${addDays(TODAY, -6)}&to=${TODAY}&pageSize=20`;
  const ads = `${AD_DAILY}?from=${addDays(TODAY, -6)}&to=${TODAY}`;
  const stats = [
    `/app/admin/stats/reports/domains?from=${addDays(TODAY, -6)}&to=${TODAY}`,
    `/app/admin/stats/reports/visits?from=${addDays(TODAY, -6)}&to=${TODAY}&domain=a.example.com&dimension=path`,
  ];
  for (const path of stats) await get(path);
  await newEventsToday('n1');
  // Not warmed: the next reads compute again from the rollups.
  for (const path of [agents, ads, ...stats])
    expect((await rollupReads(() => get(path))).reads.length, path).toBeGreaterThan(0);

  await newEventsToday('n2');
  const warm = await warmReads(watched.db, api.clock.now());
  expect(warm.failed).toEqual([]);
  expect(warm.warmed).toBe(4);
  const a = await rollupReads(() => get(agents));
  expect(a.reads).toEqual([]);
  const d = await rollupReads(() => get(ads));
  expect(d.reads).toEqual([]);
  for (const path of stats) expect((await rollupReads(() => get(path))).reads, path).toEqual([]);
  const domains = await get(stats[0]);
  expect(domains.totals.pageViews).toBe(
    (
      await api.query<{ n: number }>(sql`select count(*)::int as n from stat_events where type = 'pageview'
      and day between ${addDays(TODAY, -6)}::date and ${TODAY}::date`)
    )[0].n,
  );
  // And the kept answer is today's: it counts the visitor of the last events.
  const fresh = await allAgentsStat(api.database.db, {
    tenant: 2,
    period: { from: addDays(TODAY, -6), to: TODAY },
    today: TODAY,
  });
  const row = a.result.list.find((x: { channel: string }) => x.channel === 'wr-a');
  expect(row.visitors).toBe(fresh.list.find((x) => x.channel === 'wr-a')!.visitors);
  expect(row.visitors).toBeGreaterThanOrEqual(6);
  expect(d.result.totals.impressions).toBe(6); // 4 of the days before, 2 today
});

test('the rollup timer warms them after its run, and reports a read it could not make', async () => {
  const agents = `${AGENTS}?from=${addDays(TODAY, -6)}&to=${TODAY}&pageSize=20`;
  await newEventsToday('tm');
  await api.query(sql`insert into report_reads (tenant, report, query, day, read_at)
    values (2, 'agents.all', '{"from":"2026-13-01","to":"2026-13-02"}', ${TODAY}::date, ${api.clock.now().toISOString()}::timestamptz)`);
  const warn = vi.fn();
  const stop = startRollupTimer(watched.db, {
    seconds: 3600,
    defaultTenant: api.config.defaultTenant,
    clock: api.clock,
    logger: { info() {}, warn, error() {} } as unknown as Logger,
  });
  try {
    await vi.waitFor(
      () =>
        expect(warn).toHaveBeenCalledWith(
          {
            failed: [
              expect.objectContaining({
                report: 'agents.all',
                query: '{"from":"2026-13-01","to":"2026-13-02"}',
              }),
            ],
          },
          'report reads not warmed',
        ),
      { timeout: 30_000, interval: 100 },
    );
  } finally {
    stop();
  }
  await api.query(sql`delete from report_reads where query like '%2026-13-01%'`);
  expect((await rollupReads(() => get(agents))).reads).toEqual([]);
});

test("at the day's turn, the last 7 days read yesterday are warmed as the last 7 days of today", async () => {
  const tomorrow = addDays(TODAY, 1);
  api.clock.advance(20 * 3_600_000); // 12:00 tomorrow in Asia/Shanghai

  try {
    await newEventsToday('t1', `${tomorrow}T03:00:00Z`);
    const warm = await warmReads(watched.db, api.clock.now());
    expect(warm.failed).toEqual([]);
    const a = await rollupReads(() =>
      get(`${AGENTS}?from=${addDays(tomorrow, -6)}&to=${tomorrow}&pageSize=20`),
    );
    expect(a.reads).toEqual([]);
    const d = await rollupReads(() => get(`${AD_DAILY}?from=${addDays(tomorrow, -6)}&to=${tomorrow}`));
    expect(d.reads).toEqual([]);
    expect(d.result.list.map((x: { key: string }) => x.key)).toContain(tomorrow);
    // A period that ended before yesterday stays where it was.
    await get(`${AGENTS}?from=${addDays(TODAY, -9)}&to=${addDays(TODAY, -3)}`);
    api.clock.advance(20 * 3_600_000);
    const later = await warmReads(watched.db, api.clock.now());
    expect(later.failed).toEqual([]);
    const old = await rollupReads(() => get(`${AGENTS}?from=${addDays(TODAY, -9)}&to=${addDays(TODAY, -3)}`));
    expect(old.reads).toEqual([]);
  } finally {
    api.clock.set(new Date(`${TODAY}T08:00:00Z`));
  }
});

test('a start warms from the table: a handle with nothing kept computes once, then reads nothing', async () => {
  const started = watchedDb(api.database.db as unknown as Db); // what a new process keeps: nothing
  const first = await warmReads(started.db, api.clock.now());
  expect(first.failed).toEqual([]);
  expect(first.warmed).toBeGreaterThanOrEqual(2);
  const reads = (from: number) =>
    started.seen.slice(from).filter((s) => ROLLUPS.test(s.sql) && !SHARE.test(s.sql));
  expect(reads(0).length).toBeGreaterThan(0);
  const mark = started.seen.length;
  await warmReads(started.db, api.clock.now());
  expect(reads(mark)).toEqual([]);
});

test('a start warms with the timer off too (the rollup run by cron): its handle reads nothing when warmed again', async () => {
  const started = watchedDb(api.database.db as unknown as Db);
  const stop = startRollupTimer(started.db, {
    seconds: 0,
    defaultTenant: api.config.defaultTenant,
    clock: api.clock,
    logger: { info() {}, warn() {}, error() {} } as unknown as Logger,
  });
  const reads = (from: number) =>
    started.seen.slice(from).filter((s) => ROLLUPS.test(s.sql) && !SHARE.test(s.sql));
  try {
    await vi.waitFor(() => expect(reads(0).length).toBeGreaterThan(0), { timeout: 30_000, interval: 100 });
  } finally {
    stop();
  }
  // Every remembered read was made by the start's warm-up: made again, it is cached.
  await vi.waitFor(
    async () => {
      const mark = started.seen.length;
      const again = await warmReads(started.db, api.clock.now());
      expect(again.warmed).toBeGreaterThanOrEqual(2);
      expect(reads(mark)).toEqual([]);
    },
    { timeout: 30_000, interval: 200 },
  );
});

test('reads past the warm window are left, a failing one is reported and the rest warmed; the rollup forgets old ones', async () => {
  const now = api.clock.now();
  await api.query(sql`delete from report_reads`);
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  await api.query(sql`insert into report_reads (tenant, report, query, day, read_at) values
    (2, 'agents.all', ${JSON.stringify({ from: addDays(TODAY, -2), to: TODAY })}, ${TODAY}::date, ${at(60_000)}::timestamptz),
    (2, 'agents.all', ${JSON.stringify({ from: addDays(TODAY, -3), to: TODAY })}, ${TODAY}::date, ${at(WARM_FOR_MS + 60_000)}::timestamptz),
    (2, 'agents.all', '{"from":"not a day","to":"neither"}', ${TODAY}::date, ${at(1000)}::timestamptz),
    (2, 'no.such.report', '{}', ${TODAY}::date, ${at(1000)}::timestamptz),
    (2, 'ad.daily', '{}', ${TODAY}::date, ${at(8 * 24 * 3_600_000)}::timestamptz)`);
  const warm = await warmReads(watched.db, now);
  await rollup(api, admin); // every rollup run forgets the reads of over a week ago
  expect(warm.warmed).toBe(1);
  expect(warm.failed.map((f) => [f.report, f.query])).toEqual([
    ['agents.all', '{"from":"not a day","to":"neither"}'],
  ]);
  const left = await api.query<{ report: string }>(sql`select report from report_reads order by report`);
  expect(left.map((r) => r.report)).toEqual(['agents.all', 'agents.all', 'agents.all', 'no.such.report']);
});

test('a read is remembered beside its answer, not after it', async () => {
  await api.query(sql`delete from report_reads`);
  watched.seen.length = 0;
  // a period no other test reads (no answer kept for it)
  await get(`${AGENTS}?from=${addDays(TODAY, -4)}&to=${addDays(TODAY, -1)}`);
  const issued = watched.seen.map((s) => s.sql);
  const remembered = issued.findIndex((q) => q.includes('insert into report_reads'));
  expect(remembered).toBeGreaterThan(-1);
  // The answer's statements were issued before and after it: the write did not wait for the answer to end.
  expect(issued.slice(remembered + 1).some((q) => ROLLUPS.test(q))).toBe(true);
});

test('a query read again within the minute is written once', async () => {
  await api.query(sql`delete from report_reads`);
  const path = `${AGENTS}?from=${addDays(TODAY, -1)}&to=${TODAY}`;
  await get(path);
  const [first] = await api.query<{ read_at: string }>(sql`select read_at::text from report_reads`);
  api.clock.advance(30_000);
  try {
    await get(path);
    const [same] = await api.query<{ read_at: string }>(sql`select read_at::text from report_reads`);
    expect(same.read_at).toBe(first.read_at);
    api.clock.advance(60_000);
    await get(path);
    const [later] = await api.query<{ read_at: string }>(sql`select read_at::text from report_reads`);
    expect(later.read_at).not.toBe(first.read_at);
  } finally {
    api.clock.set(new Date(`${TODAY}T08:00:00Z`));
  }
});

test("an operator's unseen list is read again after a run: its movies' last days have followed the run", async () => {
  const ids = (
    await api.query<{ id: number }>(
      sql`insert into movies (title, status, published_at)
        values ('Warm film', 'online', '2026-05-01'), ('Warm film 2', 'online', '2026-05-02') returning id`,
    )
  ).map((r) => Number(r.id));
  const unseen = `/app/admin/stats/reports/unseen?type=movie&from=${addDays(TODAY, -6)}&to=${TODAY}&pageSize=100`;
  const keys = async () => ((await get(unseen)).list as { key: string }[]).map((r) => r.key);
  expect(await keys()).toEqual(expect.arrayContaining(ids.map(String)));
  const viewed = async (id: number) => {
    const r = await send([event({ visitor: `wr-u${id}`, object: { type: 'movie', id } })]);
    expect(r.body.data.accepted).toBe(1);
    await rollup(api, admin);
  };
  const lastDaysReads = (from: number) =>
    watched.seen.slice(from).filter((s) => s.sql.includes('string_agg(object_id'));
  // Not warmed: the next read reads the moved last days itself.
  await viewed(ids[0]);
  let mark = watched.seen.length;
  expect(await keys()).not.toContain(String(ids[0]));
  expect(lastDaysReads(mark)).toHaveLength(1);
  // Warmed: the run's warm-up read them.
  await viewed(ids[1]);
  const warm = await warmReads(watched.db, api.clock.now());
  expect(warm.failed).toEqual([]);
  mark = watched.seen.length;
  expect(await keys()).not.toContain(String(ids[1]));
  expect(lastDaysReads(mark)).toEqual([]);
});
