// The movies list at scale (issues #3, #18): 1,000,000 movies on PostgreSQL and 100,000 on PGlite, seeded once by
// the bulk seeder (server/seed/bulk.ts) and reused while the seed, the size and the seeder are the same (newer
// migrations are applied to it). Each list query goes through the API in-process (app.request, no HTTP) and, beside
// it, the same SQL statements the request ran (captured from Drizzle's logger, replayed on the driver), so the API's
// own overhead shows (bench/_timing.mjs). The queries: the issue #3 list, then every filter the review and online
// screens offer (src/resources/movie/MovieFilters.tsx), each with its view and the view's sort, on page 1 and on
// page 50. Target on PostgreSQL at 1M: p95 ≤ 15 ms for each query, its total included. Then the statistics' list of
// online movies not seen in a period (GET /app/admin/stats/reports/unseen) over 90 days of movie rollups seeded
// beside them (a fiftieth of the movies seen a day), BENCH_UNSEEN_RUNS (10) times each.
//
//   npm run bench -- movies
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres; the bench uses its own
//   database zg_bench_movies there)  BENCH_MOVIES_PG=1000000  BENCH_MOVIES_PGLITE=100000  BENCH_RUNS=100
//   BENCH_ONLY=postgres|pglite  BENCH_QUERIES=<regex on the query names>
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { benchDatabase, markSeeded } from './_pg.mjs';
import { inProcessApi, serverModules } from './_server.mjs';
import { statementCapture, timeList } from './_timing.mjs';

const SEED = 42;
const PG_MOVIES = Number(process.env.BENCH_MOVIES_PG ?? 1_000_000);
const PGLITE_MOVIES = Number(process.env.BENCH_MOVIES_PGLITE ?? 100_000);
const PICK = process.env.BENCH_QUERIES ? new RegExp(process.env.BENCH_QUERIES) : null;
const ONLY = process.env.BENCH_ONLY;
const BENCH_DB = 'zg_bench_movies';
const CACHE = 'bench/.cache';
const ADMIN_PASSWORD = 'bench-admin-1';
/** The 90 fixed days of the seeded movie views (fixed, so that reused data answers the same period). */
const UNSEEN = { from: '2026-06-01', to: '2026-08-29' };
const UNSEEN_RUNS = Number(process.env.BENCH_UNSEEN_RUNS ?? 10);

const { load, close: closeModules } = await serverModules();
const { loadConfig } = await load('/server/config.ts');
const { migrate } = await load('/server/db/migrate.ts');
const schema = await load('/server/db/schema.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');
const { bulkSeedMovies, countDrift } = await load('/server/seed/bulk.ts');

/**
 * What the seeded data depends on: the seed, the size and the seeder; a change to any of it seeds again. Migrations
 * added later (indexes, say) are applied to a reused database as to a live one, then its statistics refreshed.
 */
function dataKey(movies) {
  const h = createHash('sha256');
  h.update(`${SEED}/${movies}/views ${UNSEEN.from} ${UNSEEN.to}\n`);
  for (const f of readdirSync('server/seed').sort()) h.update(readFileSync(join('server/seed', f)));
  return h.digest('hex').slice(0, 12);
}

/**
 * Applies migrations newer than the reused data (none: nothing runs), then VACUUM ANALYZE: a migration that rewrote
 * rows (0100 fills `tag_ids`) leaves the visibility map cleared, and index-only scans read the table until autovacuum.
 */
async function migrateReused(db, rawQuery, label) {
  const before = Number((await rawQuery('select count(*)::int as n from _migrations'))[0]?.n ?? 0);
  await migrate(db);
  const after = Number((await rawQuery('select count(*)::int as n from _migrations'))[0]?.n ?? 0);
  if (after > before) {
    await rawQuery('vacuum analyze');
    console.log(
      `  ${label}: applied ${after - before} newer migration(s) to the reused data, then VACUUM ANALYZE`,
    );
  }
}

const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });

/** Statements the next request runs, captured from Drizzle's logger. */
const capture = statementCapture();
const { logger } = capture;

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
  // The movies' views over UNSEEN's days as the rollup stores them: a fiftieth of the movies a day, spread by a step
  // prime to their number (the same rows on every seed).
  const t1 = performance.now();
  const perDay = Math.max(1, Math.floor(movies / 50));
  await db.execute(sql`insert into stat_object_daily (tenant, object_type, day, object_id, views, plays)
    select ${config.defaultTenant}, 'movie', d::date,
      1 + ((g::bigint * 7919 + (d::date - ${UNSEEN.from}::date) * 104729) % ${movies})::int, 1 + g % 50, g % 10
    from generate_series(${UNSEEN.from}::date, ${UNSEEN.to}::date, '1 day') d, generate_series(1, ${perDay}) g
    on conflict do nothing`);
  // The last day each movie was seen, and their counts, as the rollup keeps them beside its rows (migration 0125).
  await db.execute(sql`select zg_stat_seen_rebuild()`);
  await db.execute(sql`analyze stat_object_daily`);
  await db.execute(sql`analyze stat_object_seen`);
  console.log(
    `  ${label}: ${perDay.toLocaleString('en')} movies seen a day over 90 days (${(perDay * 90).toLocaleString('en')} rollup rows) in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );
  return seconds;
}

/** The screens' filters (MovieFilters.tsx), each with a value that matches a realistic share of the seeded movies. */
const SCREEN_FILTERS = {
  review: (ids) => [
    ['status pending', 'status=pending'],
    ['title 视频', `q=${encodeURIComponent('视频')}`],
    ['title "city"', 'q=city'],
    ['column', `columnId=${ids.column}`],
    ['tag', `tagId=${ids.tag}`],
    ['platform', `platform=${ids.platform}`],
    ['created from', 'createdFrom=2026-05-01'],
    ['created to', 'createdTo=2025-06-30'],
    ['created in a month', 'createdFrom=2026-05-01&createdTo=2026-05-31'],
  ],
  online: (ids) => [
    ['status offline', 'status=offline'],
    ['title 视频', `q=${encodeURIComponent('视频')}`],
    ['title "city"', 'q=city'],
    ['column', `columnId=${ids.column}`],
    ['tag', `tagId=${ids.tag}`],
    ['platform', `platform=${ids.platform}`],
    ['recommended', 'recommended=true'],
    ['not free', 'free=false'],
    ['views ≥ 1,000,000', 'viewsMin=1000000'],
    ['views ≤ 10,000', 'viewsMax=10000'],
    ['published from', 'publishedFrom=2026-05-01'],
    ['published to', 'publishedTo=2025-06-30'],
    ['published in a month', 'publishedFrom=2026-05-01&publishedTo=2026-05-31'],
  ],
};
const SCREEN_SORT = {
  review: 'sort=createdAt&order=desc&pageSize=20',
  online: 'sort=publishedAt&order=desc&pageSize=20',
};

const OTHER_SORT = {
  review: ['publication', SCREEN_SORT.online],
  online: ['creation', SCREEN_SORT.review],
};

/** The queries: the issue #3 list, then each screen alone and with each of its filters, on page 1 and page 50. */
function queries(ids) {
  const byPublished = 'sort=publishedAt&order=desc&pageSize=20';
  const list = [
    ['page 1', `${byPublished}&page=1`],
    ['page 10', `${byPublished}&page=10`],
    ['page 1000', `${byPublished}&page=1000`],
    ['column', `${byPublished}&columnId=${ids.column}`],
    ['tag', `${byPublished}&tagId=${ids.tag}`],
    ['platform', `${byPublished}&platform=${ids.platform}`],
    ['status online', `${byPublished}&status=online`],
    ['title 视频', `${byPublished}&q=${encodeURIComponent('视频')}`],
    ['title "city"', `${byPublished}&q=city`],
    [
      'online + 视频 + column',
      `view=online&${byPublished}&columnId=${ids.column}&q=${encodeURIComponent('视频')}`,
    ],
  ];
  for (const view of ['review', 'online']) {
    const base = `view=${view}&${SCREEN_SORT[view]}`;
    list.push(
      [`${view}`, base],
      [`${view}, p.50`, `${base}&page=50`],
      [`${view}, p.1000`, `${base}&page=1000`],
      // The other screen's sort, clicked on this one's column header, deep.
      [`${view} by ${OTHER_SORT[view][0]}, p.1000`, `view=${view}&${OTHER_SORT[view][1]}&page=1000`],
    );
    for (const [name, filter] of SCREEN_FILTERS[view](ids))
      list.push(
        [`${view} + ${name}`, `${base}&${filter}`],
        [`${view} + ${name}, p.50`, `${base}&${filter}&page=50`],
      );
  }
  return PICK ? list.filter(([name]) => PICK.test(name)) : list;
}

async function run(label, db, rawQuery) {
  const api = await inProcessApi(load, { db, config, password: ADMIN_PASSWORD });
  const one = async (rows) => (await rawQuery(rows))[0];
  const ids = {
    column: (await one(`select id from movie_columns where name = '动作'`)).id,
    tag: (await one(`select id from movie_tags where name = '热门'`)).id,
    platform: 2,
  };
  const call = (query) => api.call(`/app/admin/movie/movies?${query}`);

  // A long search's counts are learned when it is first searched, a short one's weeks by its first deep page
  // (migration 0120, totals.ts termTotal, termPageStart): forgotten here, so that the first of each is timed as an
  // operator's would be.
  await rawQuery('delete from movie_search_terms');
  await rawQuery('delete from movie_search_counts');
  for (const [what, query] of [
    ['first search of "city" (review queue, learns its counts and weeks)', 'q=city'],
    [
      'first deep page of 视频 (review queue, p.50, learns its weeks)',
      `q=${encodeURIComponent('视频')}&page=50`,
    ],
  ]) {
    const t0 = performance.now();
    const first = await call(`view=review&sort=createdAt&order=desc&pageSize=20&${query}`);
    console.log(`  ${what}: ${(performance.now() - t0).toFixed(1)} ms, total ${first?.total}`);
  }

  const lists = await timeList({
    title: label,
    path: '/app/admin/movie/movies?',
    queries: queries(ids),
    call,
    capture,
    rawQuery,
  });
  const period = `from=${UNSEEN.from}&to=${UNSEEN.to}`;
  const unseen = [
    ['online movies not seen in 90 days, newest first', `type=movie&${period}`],
    ['the same, page 50', `type=movie&${period}&page=50`],
    ['the same, oldest first', `type=movie&${period}&order=asc`],
    ['the same, title "city"', `type=movie&${period}&q=city`],
    // a period that ends before the last day seen (as yesterday once today has views): the anti-join's path
    ['not seen in June and July (seen since)', `type=movie&from=${UNSEEN.from}&to=2026-07-31`],
    ['the same, page 50', `type=movie&from=${UNSEEN.from}&to=2026-07-31&page=50`],
    // each movie last seen after the period searches its days
    ['not seen in June to mid-August (80 days, seen since)', `type=movie&from=${UNSEEN.from}&to=2026-08-19`],
    ['the same, page 50', `type=movie&from=${UNSEEN.from}&to=2026-08-19&page=50`],
  ].filter(([name]) => !PICK || PICK.test(name));
  if (unseen.some(([name]) => name.includes('"city"'))) {
    // A search's matches are learned when the list first searches it (migration 0129, movie/matches.ts): forgotten
    // here, that first search timed as an operator's would be.
    await rawQuery('delete from movie_search_listed');
    await rawQuery('delete from movie_search_matches');
    const t0 = performance.now();
    const first = await api.call(`/app/admin/stats/reports/unseen?type=movie&${period}&q=city`);
    console.log(
      `  first unseen search of "city" (learns its matches): ${(performance.now() - t0).toFixed(1)} ms, total ${first?.total}`,
    );
  }
  if (unseen.length)
    await timeList({
      title: `${label}, not seen in a period`,
      path: '/app/admin/stats/reports/unseen?',
      queries: unseen,
      call: (query) => api.call(`/app/admin/stats/reports/unseen?${query}`),
      capture,
      rawQuery,
      runs: UNSEEN_RUNS,
    });
  return lists;
}

async function postgres() {
  const key = dataKey(PG_MOVIES);
  const opened = await benchDatabase(BENCH_DB, key);
  if (!opened) return;
  const { pool, reuse } = opened;
  const db = drizzlePg(pool, { schema, logger });
  if (reuse)
    console.log(`PostgreSQL: reusing ${BENCH_DB} (${PG_MOVIES.toLocaleString('en')} movies, key ${key})`);
  else {
    console.log(`PostgreSQL: seeding ${PG_MOVIES.toLocaleString('en')} movies into ${BENCH_DB}`);
    await seedInto(db, PG_MOVIES, 'PostgreSQL');
    await markSeeded(pool, key);
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
