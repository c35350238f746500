// The provide API (/api.php/provide/vod/, issue #49: what another MacCMS site collects from us) at 1,000,000 movies on
// PostgreSQL, seeded once by the bulk seeder (server/seed/bulk.ts, as bench/movies.mjs does: two lines of episodes a
// movie, most online) in its own database zg_bench_provide, reused while the seed, the size and the seeder are the
// same (newer migrations are applied to it, then ANALYZE). Each request goes through the app in-process (app.request,
// no HTTP), with the SQL it ran replayed beside it (bench/_timing.mjs): ac=list, ac=videolist and ac=detail on page 1
// and a deep page, a type (t=), a search (wd=), the last 24 hours (h=24; a tenth of the online movies are made
// recent first) and ids=. Target: p95 ≤ 15 ms each, its total included.
//
//   npm run bench -- provide
//   BENCH_PROVIDE_MOVIES=1000000  BENCH_RUNS=100  BENCH_QUERIES=<regex on the query names>
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPgBench } from './_pg.mjs';
import { timeList } from './_timing.mjs';

const MOVIES = Number(process.env.BENCH_PROVIDE_MOVIES ?? 1_000_000);
const PICK = process.env.BENCH_QUERIES ? new RegExp(process.env.BENCH_QUERIES) : null;
const SEED = 42;
const PATH = '/api.php/provide/vod/';

/** What the seeded data depends on: the size and the seeder (a change to either seeds again). */
function dataKey() {
  const h = createHash('sha256');
  h.update(`${SEED}/${MOVIES}/recent tenth\n`);
  for (const f of readdirSync('server/seed').sort()) h.update(readFileSync(join('server/seed', f)));
  return h.digest('hex').slice(0, 12);
}

const bench = await openPgBench({
  name: 'zg_bench_provide',
  key: dataKey(),
  what: `${MOVIES.toLocaleString('en')} movies`,
  // the seed rewrites a tenth of the movies (their change time) and migrations may too: VACUUM as well
  reanalyze: 'vacuum analyze',
  seed: async (pool, db, load) => {
    const { bulkSeedMovies, countDrift } = await load('/server/seed/bulk.ts');
    let last = 0;
    await bulkSeedMovies(db, {
      seed: SEED,
      movies: MOVIES,
      onProgress(done, total) {
        if (done - last >= total / 10 || done === total) {
          last = done;
          process.stderr.write(`\r  seeding: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`);
        }
      },
    });
    process.stderr.write('\n');
    // h= reads what changed lately: a tenth of the online movies changed within the last day (the seeder's dates
    // are fixed in the past), the rest long ago.
    await pool.query(`update movies set updated_at = now() - (id % 86400) * interval '1 second'
      where status = 'online' and id % 10 = 0`);
    await pool.query('vacuum analyze');
    const drift = await countDrift(db);
    if (drift.length) throw new Error(`counts differ from the rows: ${JSON.stringify(drift)}`);
  },
});
if (!bench) process.exit(0);
const { pool, api, capture } = bench;

const set = await api.app.request('/app/admin/sys/updateSetting', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'Admin-Token': api.token },
  body: JSON.stringify({ provideOpen: true, provideKey: '' }),
});
if ((await set.json()).code !== 20000) throw new Error('could not open the provide API');

/** One provide request: its answer (`total`, `list`), refused answers thrown. */
const call = async (query) => {
  const res = await api.app.request(`${PATH}${query}`);
  const body = await res.json();
  if (body.code !== 1) throw new Error(`${query}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
};

// Values picked from the data: the column with the most online movies, a title word, a page of ids.
const online = Number(
  (await pool.query(`select count(*)::int as n from movies where status = 'online'`)).rows[0].n,
);
const [column] = (
  await pool.query(
    `select column_id as id, count(*)::int as n from movies where status = 'online' and column_id is not null
     group by 1 order by 2 desc limit 1`,
  )
).rows;
const word = (
  await pool.query(`select substr(title, 1, 2) as w from movies where status = 'online' order by id limit 1`)
).rows[0].w;
const ids = (
  await pool.query(`select id from movies where status = 'online' order by id desc offset 5000 limit 20`)
).rows.map((r) => r.id);
const deep = Math.floor(online / 20 / 2);
const queries = [
  ['ac=list', '?ac=list'],
  ['ac=videolist page 1', '?ac=videolist'],
  ['ac=detail page 1', '?ac=detail'],
  [`ac=videolist page ${deep.toLocaleString('en')}`, `?ac=videolist&pg=${deep}`],
  [`ac=detail page ${deep.toLocaleString('en')}`, `?ac=detail&pg=${deep}`],
  ['ac=videolist t= (largest column)', `?ac=videolist&t=${column.id}`],
  ['ac=videolist t= page 50', `?ac=videolist&t=${column.id}&pg=50`],
  ['ac=videolist wd=', `?ac=videolist&wd=${encodeURIComponent(word)}`],
  ['ac=videolist h=24', '?ac=videolist&h=24'],
  ['ac=detail h=24', '?ac=detail&h=24'],
  ['ac=videolist h=24 page 50', '?ac=videolist&h=24&pg=50'],
  ['ac=detail ids= (20)', `?ac=detail&ids=${ids.join(',')}`],
].filter(([name]) => !PICK || PICK.test(name));

const direct = await pool.connect();
const version = (await pool.query('show server_version')).rows[0].server_version;
await timeList({
  title: `PostgreSQL ${version}, provide API, ${MOVIES.toLocaleString('en')} movies (${online.toLocaleString('en')} online)`,
  path: PATH,
  queries,
  call,
  capture,
  rawQuery: async (q, p) => (await direct.query(q, p)).rows,
});
direct.release();
await bench.close();
