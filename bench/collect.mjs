// Collection (issue #49): a local provider on 127.0.0.1 serves 10,000 items (500 pages × 20, two lines of two
// episodes each); one run collects them all into the review queue through the outbound guard (127.0.0.1 allowed),
// each page written in one transaction. On PGlite (a data directory, as `npm start`) and on PostgreSQL (its own
// database zg_bench_collect, made afresh). Prints, for each: items/s (target ≥ 500), the process's CPU seconds over
// the run (this machine is shared: CPU time moves less with its load than wall time), and resident memory before the
// run and at its peak (sampled every 50 ms; bounded: it does not grow with the items). `npm run bench -- collect`
// writes the figures to bench/results/collect.md and .json.
//
//   npm run bench -- collect
//   BENCH_PAGES=500  BENCH_ITEMS=20  BENCH_ONLY=pglite|postgres
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres)
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase } from './_pg.mjs';
import { serverModules } from './_server.mjs';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 20);
const ONLY = process.env.BENCH_ONLY;
const TARGET = 500;

const { load, close: closeModules } = await serverModules();
const { migrate } = await load('/server/db/migrate.ts');
const { openPglite } = await load('/server/db/pglite.ts');
const { databaseOver } = await load('/server/node/postgres.ts');
const { guardedFetch } = await load('/server/node/outbound.ts');
const { executeRun } = await load('/server/modules/collect/run.ts');
const { sql } = await load('drizzle-orm');

function page(pg) {
  const list = Array.from({ length: ITEMS }, (_, i) => {
    const id = (pg - 1) * ITEMS + i + 1;
    return {
      vod_id: id,
      vod_name: `采集影片${id}`,
      type_id: 1,
      type_name: '电影',
      vod_pic: `https://img.example.com/${id}.jpg`,
      vod_year: '2020',
      vod_content: `<p>第${id}部</p>`,
      vod_play_from: 'm3u8$$$mp4',
      vod_play_url: `第1集$https://a.example.com/${id}/1.m3u8#第2集$https://a.example.com/${id}/2.m3u8$$$第1集$https://b.example.com/${id}/1.mp4#第2集$https://b.example.com/${id}/2.mp4`,
    };
  });
  return JSON.stringify({ code: 1, page: pg, pagecount: PAGES, limit: ITEMS, total: PAGES * ITEMS, list });
}

const server = createServer((req, res) => {
  const q = new URL(req.url, 'http://x').searchParams;
  res.setHeader('Content-Type', 'application/json');
  res.end(page(Number(q.get('pg') ?? 1)));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const mb = (bytes) => Math.round(bytes / 1048576);

/** One run of every page into `db` (migrated here): its figures. */
async function collect(driver, db) {
  await migrate(db);
  await db.execute(sql`insert into system_settings (tenant, data) values (2, '{"outboundAllow":["127.0.0.1"]}')
    on conflict (tenant) do update set data = system_settings.data || excluded.data`);
  const [col] = (await db.execute(sql`insert into movie_columns (name) values ('采集') returning id`)).rows;
  const [src] = (
    await db.execute(
      sql`insert into collect_sources (name, url) values ('bench', ${`http://127.0.0.1:${port}/api.php/provide/vod/`}) returning id`,
    )
  ).rows;
  await db.execute(
    sql`insert into collect_bindings (source_id, remote_type_id, column_id) values (${src.id}, 1, ${col.id})`,
  );
  const [run] = (
    await db.execute(
      sql`insert into collect_runs (source_id, kind, params) values (${src.id}, 'pages', ${JSON.stringify({ pageFrom: 1, pageTo: PAGES })}::jsonb) returning id`,
    )
  ).rows;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await executeRun({ db, outbound: guardedFetch, now: () => new Date(), tenant: 2 }, Number(run.id));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const [r] = (
    await db.execute(
      sql`select status, added, failed, error, error_detail from collect_runs where id = ${run.id}`,
    )
  ).rows;
  const [m] = (await db.execute(sql`select count(*)::int as n from movies where status = 'pending'`)).rows;
  const [p] = (await db.execute(sql`select count(*)::int as n from movie_plays`)).rows;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const figures = {
    driver,
    items: PAGES * ITEMS,
    status: r.status,
    added: Number(r.added),
    pendingMovies: Number(m.n),
    plays: Number(p.n),
    seconds: Math.round(seconds * 100) / 100,
    itemsPerSecond: Math.round(Number(r.added) / seconds),
    target: TARGET,
    processCpuSeconds: Math.round(cpuSeconds * 100) / 100,
    itemsPerCpuSecond: Math.round(Number(r.added) / cpuSeconds),
    rssBeforeMb: mb(rssBefore),
    peakRssMb: mb(peak),
  };
  console.log(JSON.stringify(figures));
  if (r.status !== 'done') console.log('run failed:', r.error, r.error_detail);
  return figures;
}

try {
  if (ONLY !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-collect-'));
    try {
      const database = await openPglite(dir);
      await collect('pglite', database.db);
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (ONLY !== 'pglite') {
    const opened = await benchDatabase('zg_bench_collect', `fresh ${Date.now()}`);
    if (opened) {
      const { pool } = opened;
      const version = (await pool.query('show server_version')).rows[0].server_version;
      console.log(`PostgreSQL ${version}:`);
      await collect('postgres', databaseOver(pool));
      await pool.end();
    }
  }
} finally {
  server.close();
  await closeModules();
}
