// The movies list at scale (issue #3): 1,000,000 movies on PostgreSQL and 100,000 on PGlite, seeded once by the
// bulk seeder (server/seed/bulk.ts) and reused while the seed, the size and the seeder are the same (newer migrations are applied to it).
// Each list query goes through the API in-process (app.request, no HTTP) and, beside it, the same SQL statements
// the request ran (captured from Drizzle's logger, replayed on the driver), so the API's own overhead shows.
// Target on PostgreSQL at 1M: p95 ≤ 30 ms for each query, its total included.
//
//   npm run bench -- movies
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres; the bench uses its own
//   database zg_bench_movies there)  BENCH_MOVIES_PG=1000000  BENCH_MOVIES_PGLITE=100000  BENCH_RUNS=100
//   BENCH_ONLY=postgres|pglite
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { serverModules } from './_server.mjs';

const SEED = 42;
const PG_MOVIES = Number(process.env.BENCH_MOVIES_PG ?? 1_000_000);
const PGLITE_MOVIES = Number(process.env.BENCH_MOVIES_PGLITE ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARMUP = 5;
const ONLY = process.env.BENCH_ONLY;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_DB = 'zg_bench_movies';
const CACHE = 'bench/.cache';
const ADMIN_PASSWORD = 'bench-admin-1';

const { load, close: closeModules } = await serverModules();
const { createApp } = await load('/server/app.ts');
const { loadConfig } = await load('/server/config.ts');
const { systemClock } = await load('/server/core/clock.ts');
const { silentLogger } = await load('/server/core/logger.ts');
const { migrate } = await load('/server/db/migrate.ts');
const schema = await load('/server/db/schema.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');
const { bulkSeedMovies, countDrift } = await load('/server/seed/bulk.ts');
const imageStorage = await load('/server/core/image-storage.ts').catch(() => ({}));

/**
 * What the seeded data depends on: the seed, the size and the seeder; a change to any of it seeds again. Migrations
 * added later (indexes, say) are applied to a reused database as to a live one, then its statistics refreshed.
 */
function dataKey(movies) {
  const h = createHash('sha256');
  h.update(`${SEED}/${movies}\n`);
  for (const f of readdirSync('server/seed').sort()) h.update(readFileSync(join('server/seed', f)));
  return h.digest('hex').slice(0, 12);
}

/** Applies migrations newer than the reused data (none: nothing runs) and analyzes what they touched. */
async function migrateReused(db, rawQuery, label) {
  const before = Number((await rawQuery('select count(*)::int as n from _migrations'))[0]?.n ?? 0);
  await migrate(db);
  const after = Number((await rawQuery('select count(*)::int as n from _migrations'))[0]?.n ?? 0);
  if (after > before) {
    await rawQuery('analyze');
    console.log(`  ${label}: applied ${after - before} newer migration(s) to the reused data, then ANALYZE`);
  }
}

const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });

/** Statements the next request runs, captured from Drizzle's logger. */
let captured = null;
const logger = {
  logQuery(query, params) {
    captured?.push([query, params]);
  },
};

async function seedInto(db, movies, label) {
  await migrate(db);
  await ensureFirstAdmin(db, config);
  const t0 = performance.now();
  let last = 0;
  const result = await bulkSeedMovies(db, {
    seed: SEED,
    movies,
    onProgress(done, total) {
      if (done - last >= total / 10 || done === total) {
        last = done;
        process.stdout.write(
          `\r  ${label}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} movies`,
        );
      }
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write('\n');
  const phases = Object.entries(result.ms)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
    .join(', ');
  console.log(
    `  ${label}: seeded ${result.seeded.toLocaleString('en')} movies in ${seconds.toFixed(1)} s (${phases})`,
  );
  const drift = await countDrift(db);
  if (drift.length)
    throw new Error(`counts differ from the rows after the bulk load: ${JSON.stringify(drift)}`);
  console.log(`  ${label}: every kept count equals its count(*)`);
  return seconds;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99) };
};

/** The queries: the list, then what the two screens open with. */
function queries(ids) {
  const byPublished = 'sort=publishedAt&order=desc&pageSize=20';
  return [
    ['page 1', `${byPublished}&page=1`],
    ['page 10', `${byPublished}&page=10`],
    ['page 1000', `${byPublished}&page=1000`],
    ['column', `${byPublished}&columnId=${ids.column}`],
    ['tag', `${byPublished}&tagId=${ids.tag}`],
    ['platform', `${byPublished}&platform=${ids.platform}`],
    ['status online', `${byPublished}&status=online`],
    ['title 视频', `${byPublished}&q=${encodeURIComponent('视频')}`],
    ['title "city"', `${byPublished}&q=city`],
    ['screen: online', `view=online&${byPublished}`],
    ['screen: review', 'view=review&sort=createdAt&order=desc&pageSize=20'],
    ['online + column', `view=online&${byPublished}&columnId=${ids.column}`],
    ['online + tag, p.50', `view=online&${byPublished}&tagId=${ids.tag}&page=50`],
    [
      'online + 视频 + column',
      `view=online&${byPublished}&columnId=${ids.column}&q=${encodeURIComponent('视频')}`,
    ],
    ['review, p.1000', 'view=review&sort=createdAt&order=desc&pageSize=20&page=1000'],
  ];
}

/**
 * The statements of a request, sent directly on one connection. The page query that follows planner settings
 * (totals.ts readPlanned: set_config(…, true)) runs with them in a transaction, as in the API.
 */
async function replay(statements, rawQuery) {
  for (let i = 0; i < statements.length; i++) {
    const [q, p] = statements[i];
    if (q.includes('set_config(') && i + 1 < statements.length) {
      await rawQuery('begin');
      await rawQuery(q, p);
      await rawQuery(...statements[++i]);
      await rawQuery('commit');
    } else await rawQuery(q, p);
  }
}

async function run(label, db, rawQuery) {
  const images = imageStorage.memoryImageStorage?.();
  const app = createApp({
    db,
    config,
    clock: systemClock,
    logger: silentLogger,
    clientAddress: () => '127.0.0.1',
    ...(images ? { images } : {}),
  });
  const login = await app.request('/app/admin/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const token = (await login.json()).data.token;
  const one = async (rows) => (await rawQuery(rows))[0];
  const ids = {
    column: (await one(`select id from movie_columns where name = '动作'`)).id,
    tag: (await one(`select id from movie_tags where name = '热门'`)).id,
    platform: 2,
  };
  const call = async (query) => {
    const res = await app.request(`/app/admin/movie/movies?${query}`, { headers: { 'Admin-Token': token } });
    const body = await res.json();
    if (body.code !== 20000) throw new Error(`${query}: ${JSON.stringify(body)}`);
    return body.data;
  };
  const rows = [];
  for (const [name, query] of queries(ids)) {
    captured = [];
    const data = await call(query);
    const statements = captured.filter(([q]) => /^\s*(select|with)\b/i.test(q));
    captured = null;
    for (let i = 0; i < WARMUP; i++) await call(query);
    const api = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await call(query);
      api.push(performance.now() - t0);
    }
    const raw = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      await replay(statements, rawQuery);
      if (i >= WARMUP) raw.push(performance.now() - t0);
    }
    const total = `${data.total.toLocaleString('en')}${data.totalExact === false ? '+' : ''}`;
    rows.push({
      name,
      query,
      total,
      rows: data.list.length,
      api: stats(api),
      sql: stats(raw),
      n: statements.length,
    });
  }
  const f = (x) => x.toFixed(1);
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(
    `\n${label} — ${RUNS} sequential requests per query after ${WARMUP} warm-up; ms (load average ${load} on ${cpus().length} cores)`,
  );
  console.log('| query | total | API p50 / p95 / p99 | same SQL p50 / p95 / p99 | statements |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.total} | ${f(r.api.p50)} / ${f(r.api.p95)} / ${f(r.api.p99)} | ${f(r.sql.p50)} / ${f(r.sql.p95)} / ${f(r.sql.p99)} | ${r.n} |`,
    );
  console.log('\nqueries:');
  for (const r of rows) console.log(`  ${r.name}: GET /app/admin/movie/movies?${r.query}`);
  return rows;
}

async function postgres() {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`PostgreSQL at ${ADMIN_URL} is not reachable (${err.message}): its part is skipped.`);
    return;
  }
  const key = dataKey(PG_MOVIES);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${BENCH_DB}`;
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [BENCH_DB])).rowCount > 0;
  let reuse = false;
  if (exists) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    reuse = await c
      .query('select key from _bench_key')
      .then((r) => r.rows[0]?.key === key)
      .catch(() => false);
    await c.end();
  }
  if (!reuse) {
    await admin.query(`drop database if exists ${BENCH_DB} with (force)`);
    await admin.query(`create database ${BENCH_DB}`);
  }
  await admin.end();
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  const db = drizzlePg(pool, { schema, logger });
  if (reuse)
    console.log(`PostgreSQL: reusing ${BENCH_DB} (${PG_MOVIES.toLocaleString('en')} movies, key ${key})`);
  else {
    console.log(`PostgreSQL: seeding ${PG_MOVIES.toLocaleString('en')} movies into ${BENCH_DB}`);
    await seedInto(db, PG_MOVIES, 'PostgreSQL');
    await pool.query('create table _bench_key (key text)');
    await pool.query('insert into _bench_key values ($1)', [key]);
  }
  const direct = await pool.connect();
  const rawPg = async (q, p) => (await direct.query(q, p)).rows;
  if (reuse) await migrateReused(db, rawPg, 'PostgreSQL');
  const version = (await pool.query('show server_version')).rows[0].server_version;
  await run(`PostgreSQL ${version}, ${PG_MOVIES.toLocaleString('en')} movies`, db, rawPg);
  direct.release();
  await pool.end();
}

async function pglite() {
  const key = dataKey(PGLITE_MOVIES);
  const dir = join(CACHE, `movies-pglite-${key}`);
  const marker = `${dir}.seeded`;
  const reuse = existsSync(marker);
  if (!reuse) {
    mkdirSync(CACHE, { recursive: true });
    for (const old of readdirSync(CACHE).filter((f) => f.startsWith('movies-pglite-')))
      rmSync(join(CACHE, old), { recursive: true, force: true });
  }
  const client = await PGlite.create({ dataDir: dir });
  const db = drizzlePglite(client, { schema, logger });
  if (reuse) console.log(`\nPGlite: reusing ${dir} (${PGLITE_MOVIES.toLocaleString('en')} movies)`);
  else {
    console.log(`\nPGlite: seeding ${PGLITE_MOVIES.toLocaleString('en')} movies into ${dir}`);
    await seedInto(db, PGLITE_MOVIES, 'PGlite');
    writeFileSync(marker, key);
  }
  const rawLite = async (q, p) => (await client.query(q, p)).rows;
  if (reuse) await migrateReused(db, rawLite, 'PGlite');
  await run(`PGlite ${PGLITE_MOVIES.toLocaleString('en')} movies`, db, rawLite);
  await client.close();
}

try {
  if (ONLY !== 'pglite') await postgres();
  if (ONLY !== 'postgres') await pglite();
} finally {
  await closeModules();
}
