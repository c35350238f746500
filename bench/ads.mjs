// The ads section at scale (issue #13): the material list over 10,000 materials with each of its filters (target
// p95 ≤ 15 ms, its total included), and the reports over 90 days of rollups. In process on PGlite (the default
// install), through the API (app.request, no HTTP).
//
//   npm run bench -- ads        BENCH_RUNS=100  BENCH_ADS=10000  BENCH_AD_DAYS=90  BENCH_AD_ACTIVE=1000
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { inProcessApi, serverModules } from './_server.mjs';
import { loadLine, RUNS, timeList } from './_timing.mjs';

const ADS = Number(process.env.BENCH_ADS ?? 10_000);
const DAYS = Number(process.env.BENCH_AD_DAYS ?? 90);
/** Materials with traffic every day of the period (the rollup rows: ACTIVE × DAYS). */
const ACTIVE = Number(process.env.BENCH_AD_ACTIVE ?? 1000);
const ADMIN_PASSWORD = 'bench-admin-1';

const { load, close } = await serverModules();
const { loadConfig } = await load('/server/config.ts');
const { migrate } = await load('/server/db/migrate.ts');
const schema = await load('/server/db/schema.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');

const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });
const tenant = config.defaultTenant;
const client = new PGlite();
const db = drizzle(client, { schema });
await migrate(db);
await ensureFirstAdmin(db, config);

const t0 = performance.now();
await client.exec(`
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
  insert into stat_object_daily (tenant, object_type, day, object_id, impressions, clicks, signups, clickers)
  select ${tenant}, 'ad', current_date - d, a.id, 100 + (a.id * 7 + d) % 900, (a.id + d) % 40, (a.id + d) % 3,
         decode(lpad(to_hex((a.id * 31 + d) % 16384), 4, '0') || '05', 'hex')
  from (select id from ads order by id limit ${ACTIVE}) a, generate_series(0, ${DAYS - 1}) d;
  analyze;
`);
const seeded = (performance.now() - t0) / 1000;

const { call } = await inProcessApi(load, { db, config, password: ADMIN_PASSWORD });
const { rows: ids } = await client.query(
  'select (select min(id) from ad_positions) as p, (select min(id) from ad_advertisers) as a',
);

console.log(
  `ads bench: ${ADS.toLocaleString('en')} materials, ${ACTIVE * DAYS} rollup rows (${ACTIVE} materials × ${DAYS} days), PGlite; seeded in ${seeded.toFixed(1)} s; ${loadLine()}`,
);
const list = [
  ['none (newest first)', ''],
  ['page 50', 'page=50'],
  ['position', `positionId=${ids[0].p}`],
  ['advertiser', `advertiserId=${ids[0].a}`],
  ['type', 'type=video'],
  ['state live', 'state=live'],
  ['state scheduled', 'state=scheduled'],
  ['state expired', 'state=expired'],
  ['state paused', 'state=paused'],
  ['expiring within 7 days', 'expiringDays=7'],
  ['platform', 'platform=4'],
  ['landing URL contains', 'url=shop42.'],
  ['title search', 'q=material%2099'],
  ['position + state + sort by end', `positionId=${ids[0].p}&state=live&sort=endAt&order=asc`],
];
await timeList({
  title: `PGlite, ${ADS.toLocaleString('en')} materials: material list (20 rows and the total)`,
  path: '/app/admin/ad/ads?',
  queries: list.map(([name, q]) => [
    name,
    `pageSize=20&${q.includes('sort=') ? '' : 'sort=id&order=desc&'}${q}`,
  ]),
  call: (query) => call(`/app/admin/ad/ads?${query}`),
});

const end = new Date();
const to = end.toISOString().slice(0, 10);
const from = new Date(end.getTime() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
const reportRuns = Math.max(5, Math.round(RUNS / 10));
const reports = [
  ['overview per position', 'positions'],
  ['overview per advertiser', 'advertisers'],
  ['overview per material', 'materials'],
  ['daily', 'daily'],
  ['daily, compared', 'daily?compare=true'],
  ['position daily', `position?positionId=${ids[0].p}`],
];
await timeList({
  title: `PGlite: ads reports over ${DAYS} days (${from} – ${to})`,
  path: '/app/admin/ad/reports/',
  queries: reports.map(([name, q]) => [name, `${q}${q.includes('?') ? '&' : '?'}from=${from}&to=${to}`]),
  call: (query) => call(`/app/admin/ad/reports/${query}`),
  runs: reportRuns,
  target: null,
});
await close();
await client.close();
