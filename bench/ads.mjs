// The ads section at scale (issues #13, #18): the material list over 10,000 materials with each filter of its screen
// (target p95 ≤ 15 ms, its total included), each through the API in-process beside the same SQL replayed on one
// connection, with the shared buffers it touches (bench/_timing.mjs); then the reports over 90 days of rollups,
// computed (what the first read after a rollup pays: adReport, no kept answer) and through the API (kept between
// reads), and through the API once the rollup timer has read them again after a rollup (warm-reads.ts), with what
// that warm-up costs. On PGlite (the default install) and on PostgreSQL (its own database zg_bench_ads, seeded again each run:
// 10,000 materials take a second).
//
//   npm run bench -- ads        BENCH_RUNS=100  BENCH_ADS=10000  BENCH_AD_DAYS=90  BENCH_AD_ACTIVE=1000
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres)  BENCH_QUERIES=<regex>
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle } from 'drizzle-orm/pglite';
import { benchDatabase } from './_pg.mjs';
import { inProcessApi, serverModules } from './_server.mjs';
import { fmtStats, loadLine, RUNS, statementCapture, timeList, timeRuns } from './_timing.mjs';

const ADS = Number(process.env.BENCH_ADS ?? 10_000);
const DAYS = Number(process.env.BENCH_AD_DAYS ?? 90);
/** Materials with traffic every day of the period (the rollup rows: ACTIVE × DAYS). */
const ACTIVE = Number(process.env.BENCH_AD_ACTIVE ?? 1000);
const PICK = process.env.BENCH_QUERIES ? new RegExp(process.env.BENCH_QUERIES) : null;
const ADMIN_PASSWORD = 'bench-admin-1';

const { load, close } = await serverModules();
const { loadConfig } = await load('/server/config.ts');
const { migrate } = await load('/server/db/migrate.ts');
const schema = await load('/server/db/schema.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');
const { adReport } = await load('/server/modules/ad/reports.ts');
const { warmReads } = await load('/server/modules/statistics/warm-reads.ts');

const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });
const tenant = config.defaultTenant;

const seedSql = `
  insert into ad_advertisers (tenant, name) select ${tenant}, 'advertiser ' || g from generate_series(1, 20) g;
  insert into ad_positions (tenant, name, key, type) select ${tenant}, 'position ' || g, 'pos_' || g, 'image' from generate_series(1, 50) g;
  insert into ads (tenant, title, type, creative, landing_url, position_id, advertiser_id, platforms, device, weight,
                   start_at, end_at, pricing, price, enabled)
  select ${tenant}, 'material ' || g, (array['image','text','popup','video'])[1 + g % 4], 'https://cdn.example.com/' || g || '.png',
         'https://shop' || (g % 97) || '.example.com/landing?ad=' || g,
         (select min(id) from ad_positions) + g % 50, (select min(id) from ad_advertisers) + g % 20,
         case when g % 3 = 0 then '{}'::integer[] else array[(array[2,1,4,5,6])[1 + g % 5]] end,
         (array['all','mobile','desktop'])[1 + g % 3], 1 + g % 10,
         now() - ((g % 120) || ' days')::interval, case when g % 4 = 0 then null else now() + ((g % 60 - 20) || ' days')::interval end,
         (array['cpm','cpc','cpa','monthly'])[1 + g % 4], 1 + g % 50, g % 10 <> 0
  from generate_series(1, ${ADS}) g;
  update ad_positions p set fallback_ad_id = (select max(id) from ads a where a.position_id = p.id);
  insert into stat_object_daily (tenant, object_type, day, object_id, impressions, clicks, signups, clickers)
  select ${tenant}, 'ad', current_date - d, a.id, 100 + (a.id * 7 + d) % 900, (a.id + d) % 40, (a.id + d) % 3,
         decode(lpad(to_hex((a.id * 31 + d) % 16384), 4, '0') || '05', 'hex')
  from (select id from ads order by id limit ${ACTIVE}) a, generate_series(0, ${DAYS - 1}) d`;

const end = new Date();
const to = end.toISOString().slice(0, 10);
const from = new Date(end.getTime() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);

/** Seeds `db` (raw `exec` of one statement), then times the list and the reports on it. */
async function bench(name, db, exec, rawQuery, capture) {
  await migrate(db);
  await ensureFirstAdmin(db, config);
  const t0 = performance.now();
  for (const s of seedSql.split(';')) await exec(s);
  await exec('vacuum analyze');
  const seeded = (performance.now() - t0) / 1000;
  const { call } = await inProcessApi(load, { db, config, password: ADMIN_PASSWORD });
  const [ids] = await rawQuery(
    `select (select min(id) from ad_positions where tenant = ${tenant}) as p, (select min(id) from ad_advertisers where tenant = ${tenant}) as a`,
  );
  console.log(
    `\n${name}: ${ADS.toLocaleString('en')} materials, ${ACTIVE * DAYS} rollup rows (${ACTIVE} materials × ${DAYS} days); seeded in ${seeded.toFixed(1)} s; ${loadLine()}`,
  );
  // Every query the materials screen makes (src/resources/ad/AdList.tsx: newest first, each filter alone, a deep
  // page, a sort), sorted as the screen sorts by default.
  const list = [
    ['none (newest first)', ''],
    ['page 50', 'page=50'],
    ['position', `positionId=${ids.p}`],
    ['advertiser', `advertiserId=${ids.a}`],
    ['type', 'type=video'],
    ['pricing', 'pricing=cpc'],
    ['state live', 'state=live'],
    ['state scheduled', 'state=scheduled'],
    ['state expired', 'state=expired'],
    ['state paused', 'state=paused'],
    ['expiring within 7 days', 'expiringDays=7'],
    ['platform', 'platform=4'],
    ['landing URL contains', 'url=shop42.'],
    ['landing URL contains, 2 characters', 'url=42'],
    ['landing URL contains, rare', 'url=ad%3D9999'],
    ['title search', 'q=material%2099'],
    ['position + state + sort by end', `positionId=${ids.p}&state=live&sort=endAt&order=asc`],
  ].filter(([n]) => !PICK || PICK.test(n));
  await timeList({
    title: `${name}, ${ADS.toLocaleString('en')} materials: material list (20 rows and the total)`,
    path: '/app/admin/ad/ads?',
    queries: list.map(([n, q]) => [n, `pageSize=20&${q.includes('sort=') ? '' : 'sort=id&order=desc&'}${q}`]),
    call: (query) => call(`/app/admin/ad/ads?${query}`),
    capture,
    rawQuery,
  });

  // Reports over DAYS days: computed from nothing kept (adReport alone: every day read and merged, what a read pays
  // after a material changes or a past day is rolled up again), through the API right after a rollup of today (the
  // days before today kept by periodSums), right after a material's rename (the kept sums hold: migration 0113), and
  // through the API again (kept between identical reads).
  const reportRuns = Math.max(5, Math.round(RUNS / 5));
  const period = { from, to };
  const computed = [
    ['overview per position', 'position', true],
    ['overview per advertiser', 'advertiser', false],
    ['overview per material', 'ad', false],
    ['daily', 'day', false],
  ];
  console.log(
    `\n${name}: ads reports over ${DAYS} days (${from} – ${to}), ${reportRuns} sequential reads after 3 warm-up; ms (${loadLine()})`,
  );
  console.log('| report | p50 / p95 / p99 |\n|---|---:|');
  for (const [label, group, idle] of computed) {
    const run = () =>
      adReport(db, { tenant, timeZone: 'Asia/Shanghai', period }, group, {
        page: 1,
        pageSize: 20,
        compare: false,
        idle,
      });
    console.log(`| ${label}, computed from nothing kept | ${fmtStats(await timeRuns(run, reportRuns))} |`);
  }
  // What a rollup of today leaves behind for the reads (markRolled): today marked recomputed, so kept answers over it
  // are stale and the next read computes again, from the days before today kept by periodSums and today's rows.
  const rollupOfToday = () =>
    exec(`insert into stat_rolled_days (tenant, day, gen, day_gen) values (${tenant}, '${to}', txid_current(), txid_current())
      on conflict (tenant, day) do update set gen = excluded.gen, day_gen = excluded.day_gen`);
  // A rollup of an older day: every kept part over the period's older days is stale, as after a start or the day's turn.
  const rollupOfOlderDay = () =>
    exec(`insert into stat_rolled_days (tenant, day, gen, day_gen) values (${tenant}, '${from}'::date + 20, txid_current(), txid_current())
      on conflict (tenant, day) do update set gen = excluded.gen, day_gen = excluded.day_gen`);
  // What the rollup timer does after its run (warm-reads.ts): reads again what operators read (the reports below,
  // remembered by their routes).
  const warm = async () => {
    const r = await warmReads(db, new Date());
    if (r.failed.length || !r.warmed) throw new Error(`warm-up: ${JSON.stringify(r)}`);
  };
  const renameOne = () =>
    exec(`update ads set title = left(title, 80) || ' ' || (random() * 1e6)::int, version = version + 1
      where id = (select min(id) from ads where tenant = ${tenant})`);
  for (const [label, q] of [
    ['overview per position', 'positions'],
    ['overview per advertiser', 'advertisers'],
    ['overview per material', 'materials'],
    ['daily', 'daily'],
    ['daily compared', 'daily?compare=true'],
  ]) {
    const path = `/app/admin/ad/reports/${q}${q.includes('?') ? '&' : '?'}from=${from}&to=${to}`;
    const first = await timeRuns(() => call(path), reportRuns, 3, rollupOfToday);
    console.log(`| ${label}, API, first read after a rollup of today | ${fmtStats(first)} |`);
    // A material renamed (its version moves, its figures do not): the answer is computed again, from the kept sums.
    const renamed = await timeRuns(() => call(path), reportRuns, 3, renameOne);
    console.log(`| ${label}, API, first read after a material's rename | ${fmtStats(renamed)} |`);
    console.log(`| ${label}, API (kept) | ${fmtStats(await timeRuns(() => call(path), reportRuns))} |`);
    for (const [what, rolled] of [
      ['today', rollupOfToday],
      ['an older day', rollupOfOlderDay],
    ]) {
      const warmed = await timeRuns(
        () => call(path),
        reportRuns,
        3,
        async () => {
          await rolled();
          await warm();
        },
      );
      console.log(
        `| ${label}, API, first read after a rollup of ${what}, warmed by the timer | ${fmtStats(warmed)} |`,
      );
    }
  }
  // The warm-up itself, of the five reports read above, in the background after each rollup run.
  for (const [what, rolled] of [
    ["an older day (or a start, or the day's turn: computed from nothing)", rollupOfOlderDay],
    ['today', rollupOfToday],
  ])
    console.log(
      `| the timer's warm-up of the five reports after a rollup of ${what} | ${fmtStats(await timeRuns(warm, reportRuns, 3, rolled))} |`,
    );
}

{
  const capture = statementCapture();
  const client = new PGlite();
  const db = drizzle(client, { schema, logger: capture.logger });
  await bench(
    'PGlite',
    db,
    (s) => client.exec(s),
    async (q, p) => (await client.query(q, p)).rows,
    capture,
  );
  await client.close();
}

const opened = await benchDatabase('zg_bench_ads', `fresh ${Date.now()}`);
if (opened) {
  const capture = statementCapture();
  const { pool } = opened;
  const db = drizzlePg(pool, { schema, logger: capture.logger });
  const direct = await pool.connect();
  const version = (await pool.query('show server_version')).rows[0].server_version;
  await bench(
    `PostgreSQL ${version}`,
    db,
    (s) => pool.query(s),
    async (q, p) => (await direct.query(q, p)).rows,
    capture,
  );
  direct.release();
  await pool.end();
}
await close();
