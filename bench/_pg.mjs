// The PostgreSQL database a list benchmark seeds once and reuses (movies, users, comments, agents): its own database on the
// server of BENCH_DATABASE_URL, kept while the bench's key (its size and seed statement) is the same, dropped and
// created again otherwise.
import pg from 'pg';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Opens the bench's database `name`: `{ pool, reuse }`, `reuse` true when it holds the data of `key` (written in
 * `_bench_key` by `markSeeded`). Null when PostgreSQL is not reachable (the bench skips its PostgreSQL part).
 */
export async function benchDatabase(base, key) {
  // BENCH_DB_SUFFIX: benches of two checkouts run at once on one server each in databases of their own.
  const name = `${base}${process.env.BENCH_DB_SUFFIX ?? ''}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`PostgreSQL at ${ADMIN_URL} is not reachable (${err.message}): its part is skipped.`);
    return null;
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount > 0;
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
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  }
  await admin.end();
  // Just-in-time compilation off, as on the server's connections (server/node/postgres.ts SESSION_SETTINGS).
  return { pool: new pg.Pool({ connectionString: url.toString(), max: 10, options: '-c jit=off' }), reuse };
}

/** Records that the database now holds the data of `key`. */
export async function markSeeded(pool, key) {
  await pool.query('create table if not exists _bench_key (key text)');
  await pool.query('delete from _bench_key');
  await pool.query('insert into _bench_key values ($1)', [key]);
}

/**
 * A benchmark's PostgreSQL database, timed through the API in-process (the list benches, the provide API): opens its
 * database `name` (reused while `key` is the same, otherwise `seed(pool, db, load)` fills it), applies migrations
 * newer than the data (then `reanalyze`: ANALYZE, or VACUUM ANALYZE for data the seed rewrote), makes the first admin
 * and logs in. `what` names the rows ("1,000,000 members"). Answers `{ load, pool, db, capture, api, close }`
 * (`capture` records the statements the API runs, for bench/_timing.mjs), or null when PostgreSQL is not reachable.
 */
export async function openPgBench({ name, key, what, seed, reanalyze = 'analyze' }) {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { inProcessApi, serverModules } = await import('./_server.mjs');
  const { statementCapture } = await import('./_timing.mjs');
  const password = 'bench-admin-1';
  const { load, close: closeModules } = await serverModules();
  const { loadConfig } = await load('/server/config.ts');
  const { migrate } = await load('/server/db/migrate.ts');
  const schema = await load('/server/db/schema.ts');
  const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');
  const config = loadConfig({ ADMIN_PASSWORD: password, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });
  const capture = statementCapture();
  const opened = await benchDatabase(name, key);
  if (!opened) {
    await closeModules();
    return null;
  }
  const { pool, reuse } = opened;
  const db = drizzle(pool, { schema, logger: capture.logger });
  const migrations = async () =>
    Number(
      (await pool.query('select count(*)::int as n from _migrations').catch(() => ({ rows: [{ n: 0 }] })))
        .rows[0].n,
    );
  const before = await migrations();
  await migrate(db);
  await ensureFirstAdmin(db, config);
  if (reuse) {
    const newer = (await migrations()) - before;
    if (newer) await pool.query(reanalyze);
    console.log(
      `PostgreSQL: reusing ${name} (${what}, key ${key})${newer ? `, ${newer} newer migration(s) applied, then ${reanalyze.toUpperCase()}` : ''}`,
    );
  } else {
    const t0 = performance.now();
    await seed(pool, db, load);
    await markSeeded(pool, key);
    console.log(`PostgreSQL: seeded ${what} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const api = await inProcessApi(load, { db, config, password });
  return {
    load,
    pool,
    db,
    capture,
    api,
    close: async () => {
      await pool.end();
      await closeModules();
    },
  };
}

/**
 * A list benchmark on PostgreSQL (users, comments): its database opened as `openPgBench` does, `check(pool)` run on
 * the data, then `queries` on `path` timed through the API in-process beside the same SQL (bench/_timing.mjs
 * `timeList`).
 */
export async function pgListBench({ name, key, what, seed, check, first, path, queries }) {
  const { timeList } = await import('./_timing.mjs');
  const bench = await openPgBench({ name, key, what, seed });
  if (!bench) return;
  const { pool, api, capture } = bench;
  await check?.(pool);
  const direct = await pool.connect();
  const version = (await pool.query('show server_version')).rows[0].server_version;
  await first?.((query) => api.call(`${path}${query}`), pool);
  await timeList({
    title: `PostgreSQL ${version}, ${what}`,
    path,
    queries,
    call: (query) => api.call(`${path}${query}`),
    capture,
    rawQuery: async (q, p) => (await direct.query(q, p)).rows,
  });
  direct.release();
  await bench.close();
}
