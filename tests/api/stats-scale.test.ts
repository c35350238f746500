import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { allAgentsStat } from '../../server/modules/agents/stat';
import { MAX_LEVEL } from '../../server/modules/statistics/blocks';
import { ingest } from '../../server/modules/statistics/ingest';
import { REPORTS, runReport } from '../../server/modules/statistics/reports';
import { runRollup } from '../../server/modules/statistics/rollup';
import { estimateStored } from '../../server/modules/statistics/sketch';
import { freshDatabase, onPostgres } from './harness';

/**
 * Issue #48: one busy day (20,000 domains, 200,000 visitors, 5,000 channels) rolls up, and what the reports read of
 * it equals a recount from its raw events. Before, the domains' blocks were written in one statement of
 * 8 × domains × 6 parameters (past PostgreSQL's 65,535; at 5,000 domains building it overflowed the stack), and the
 * agents' stat listed every channel of no agent in one `in (…)`.
 */
const TENANT = 2;
const NOW = new Date('2026-06-03T04:00:00Z'); // 12:00 in Shanghai
const DAY = '2026-06-03';
/**
 * On PGlite a tenth of the day: its rollup of 200,000 visitors (one row each in `stat_visitors` and the visitors'
 * hours, per domain and site-wide) took 10 to 13 minutes of the suite's 15, in WebAssembly. 2,000 domains still make
 * the old blocks statement overflow PostgreSQL's 65,535 parameters (8 × 2,000 × 6), and fold in 20 chunks.
 */
const SCALE = onPostgres ? 1 : 10;
const DOMAINS = 20_000 / SCALE;
const VISITORS = 200_000 / SCALE;
const CHANNELS = 5_000 / SCALE;
const AGENTS = 20; // channels ch0 … ch19 have an agent; the others (4,980; PGlite 480) do not

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
  await migrate(database.db);
});
afterAll(() => database?.close());

const q = async <T>(s: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(s));

test(`a day of ${DOMAINS} domains, ${VISITORS} visitors and ${CHANNELS} channels rolls up, equal to a recount`, async () => {
  // One page view per visitor; visitor i on domain i mod DOMAINS through channel i mod CHANNELS.
  for (let from = 0; from < VISITORS; from += 5_000) {
    const events = Array.from({ length: Math.min(5_000, VISITORS - from) }, (_, k) => {
      const i = from + k;
      return {
        id: `scale-evt-${i}`,
        type: 'pageview',
        time: new Date(NOW.getTime() - (i % 36_000) * 1000).toISOString(),
        domain: `d${i % DOMAINS}.test`,
        path: '/',
        visitor: `visitor-${i}`,
        channel: `ch${i % CHANNELS}`,
      };
    });
    const r = await ingest(database.db, TENANT, events, { now: NOW, clientAddress: '10.0.0.1' });
    expect(r).toEqual({ accepted: events.length, duplicates: 0, dropped: 0, rejected: [] });
  }
  await database.db.execute(sql`insert into agents (tenant, name, channel, model, rate)
    select ${TENANT}, 'agent ' || g, 'ch' || g, 'share', 10 from generate_series(0, ${AGENTS - 1}) g`);

  const run = await runRollup(database.db, {
    now: NOW,
    defaultTenant: TENANT,
    parallel: database.driver === 'postgres',
  });
  expect(run.stuck).toEqual([]);
  expect(run.days.map((d) => d.day)).toEqual([DAY]);

  // The recount, from the raw events.
  const raw = await q<{ domain: string; pv: number; v: number }>(
    sql`select domain, count(*)::int as pv, count(distinct visitor_hash)::int as v from stat_events
      where tenant = ${TENANT} group by domain`,
  );
  expect(raw.length).toBe(DOMAINS);
  const rolled = new Map(
    (
      await q<{ domain: string; pv: number; visits: number }>(
        sql`select domain, page_views as pv, visits from stat_domain_daily where tenant = ${TENANT} and day = ${DAY}::date`,
      )
    ).map((r) => [r.domain, [Number(r.pv), Number(r.visits)]]),
  );
  expect(rolled.get('')).toEqual([VISITORS, VISITORS]);
  expect(new Map([...rolled].filter(([d]) => d !== ''))).toEqual(
    new Map(raw.map((r) => [r.domain, [Number(r.pv), Number(r.v)]])),
  );
  const channels = await q<{ channel: string; pv: number }>(
    sql`select channel, page_views as pv from stat_channel_daily where tenant = ${TENANT} and day = ${DAY}::date`,
  );
  expect(channels.length).toBe(CHANNELS);
  expect(channels.every((c) => Number(c.pv) === VISITORS / CHANNELS)).toBe(true);

  // Every domain's blocks, one per level, each holding the day's sketch alone (the estimates agree).
  const [{ n }] = await q<{ n: number }>(
    sql`select count(*)::int as n from stat_domain_blocks where tenant = ${TENANT}`,
  );
  expect(n).toBe((DOMAINS + 1) * MAX_LEVEL);
  const sample = await q<{ b: Uint8Array; n: number }>(
    sql`select b.visitors as b, d.visitors_n as n from stat_domain_blocks b join stat_domain_daily d
      on d.tenant = b.tenant and d.domain = b.domain and d.day = ${DAY}::date
      where b.tenant = ${TENANT} and b.level = ${MAX_LEVEL} and b.domain in ('', 'd0.test', ${`d${DOMAINS - 1}.test`})`,
  );
  expect(sample.length).toBe(3);
  for (const s of sample) expect(estimateStored([new Uint8Array(s.b)])).toBe(Number(s.n));

  // The domains report: every domain, their page views summed.
  const report = await runReport(database.db, REPORTS.domains, {
    tenant: TENANT,
    period: { from: '2026-05-01', to: DAY }, // read through the blocks
    scope: [],
    sort: 'pageViews',
    order: 'desc',
    page: 1,
    pageSize: 100,
    compare: false,
  });
  expect(report.total).toBe(DOMAINS);
  expect(report.totals).toMatchObject({ pageViews: VISITORS });

  // The agents' stat: 20 agents' channels, 4,980 others left out of its series.
  const stat = await allAgentsStat(database.db, {
    tenant: TENANT,
    period: { from: DAY, to: DAY },
    today: DAY,
  });
  expect(stat.list.length).toBe(AGENTS);
  expect(stat.list.every((a) => a.pageViews === VISITORS / CHANNELS)).toBe(true);
  expect(stat.series.map((d) => d.pageViews)).toEqual([(AGENTS * VISITORS) / CHANNELS]);
}, 900_000);
