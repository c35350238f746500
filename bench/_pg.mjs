// The PostgreSQL database a list benchmark seeds once and reuses (movies, users, comments, agents): its own database on the
// server of BENCH_DATABASE_URL, kept while the bench's key (its size and seed statement) is the same, dropped and
// created again otherwise.
import pg from 'pg';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Opens the bench's database `name`: `{ pool, reuse }`, `reuse` true when it holds the data of `key` (written in
 * `_bench_key` by `markSeeded`). Null when PostgreSQL is not reachable (the bench skips its PostgreSQL part).
 */
export async function benchDatabase(name, key) {
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
  return { pool: new pg.Pool({ connectionString: url.toString(), max: 10 }), reuse };
}

/** Records that the database now holds the data of `key`. */
export async function markSeeded(pool, key) {
  await pool.query('create table if not exists _bench_key (key text)');
  await pool.query('delete from _bench_key');
  await pool.query('insert into _bench_key values ($1)', [key]);
}
