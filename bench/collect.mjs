// Collection (issue #49): a local provider on 127.0.0.1 serves 10,000 items (500 pages × 20, two lines of two
// episodes each); one run collects them all into the review queue through the outbound guard (127.0.0.1 allowed),
// each page written in one transaction. Prints items/s (target ≥ 500) and peak RSS, and writes them to
// bench/results/collect.json. PGlite on a data directory, as `npm start`.
//
//   npm run bench -- collect
//   BENCH_PAGES=500  BENCH_ITEMS=20
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverModules } from './_server.mjs';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 20);

const { load, close: closeModules } = await serverModules();
const { migrate } = await load('/server/db/migrate.ts');
const { openPglite } = await load('/server/db/pglite.ts');
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

const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-collect-'));
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);
try {
  const database = await openPglite(dir);
  const db = database.db;
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
  const t0 = performance.now();
  await executeRun({ db, outbound: guardedFetch, now: () => new Date(), tenant: 2 }, Number(run.id));
  const seconds = (performance.now() - t0) / 1000;
  const [r] = (
    await db.execute(
      sql`select status, added, failed, error, error_detail from collect_runs where id = ${run.id}`,
    )
  ).rows;
  const [m] = (await db.execute(sql`select count(*)::int as n from movies where status = 'pending'`)).rows;
  const figures = {
    items: PAGES * ITEMS,
    status: r.status,
    added: Number(r.added),
    pendingMovies: Number(m.n),
    seconds: Math.round(seconds * 100) / 100,
    itemsPerSecond: Math.round(Number(r.added) / seconds),
    peakRssMb: Math.round(peak / 1048576),
    driver: 'pglite',
  };
  console.log(figures);
  if (r.status !== 'done') console.log('run failed:', r.error, r.error_detail);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/collect.json', `${JSON.stringify(figures, null, 2)}\n`);
  await database.close();
} finally {
  clearInterval(sampler);
  server.close();
  rmSync(dir, { recursive: true, force: true });
  await closeModules();
}
