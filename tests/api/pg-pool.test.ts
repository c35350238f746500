import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { copierOf } from '../../server/db/copy-in';
import { rowsOf } from '../../server/db/migrate';
import { REPORT_TABLES } from '../../server/modules/statistics';
import { openPostgres, ResilientPool } from '../../server/node/postgres';
import { warmPool } from '../../server/node/rollup';
import { freshDatabase, onPostgres, TEST_DATABASE_URL } from './harness';

/**
 * The server's pool keeps every slot through connections that die while checked out (issue #11): a transaction
 * whose BEGIN fails on a dead connection used to keep its client for ever (Drizzle releases only after BEGIN), so
 * a PostgreSQL restart that caught a few BEGINs left the pool with fewer slots, and then none. Here each checkout
 * has its socket cut before BEGIN, three times on a pool of two; then the pool must still serve and close.
 */
const pool = onPostgres
  ? new ResilientPool({
      connectionString: TEST_DATABASE_URL,
      max: 2,
      connectionTimeoutMillis: 3_000,
    })
  : undefined;
afterAll(() => pool?.end());

test.skipIf(!onPostgres)('a client whose connection dies before BEGIN goes back to the pool', async () => {
  const db = drizzle(pool!);
  let cut = true;
  pool!.on('error', () => {}); // the cut clients' errors, as openPostgres listens for them
  pool!.on('acquire', (client: pg.PoolClient) => {
    client.on('error', () => {});
    if (cut)
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  });
  for (let i = 0; i < 3; i++)
    await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
  cut = false;
  const answer = await db.transaction(async (tx) => tx.execute(sql`select 41 + 1 as n`));
  expect(answer.rows).toEqual([{ n: 42 }]);
  expect(pool!.totalCount).toBeLessThanOrEqual(2);
  expect(pool!.waitingCount).toBe(0);
});

/**
 * Every connection of the server's pool sets SESSION_SETTINGS before the query it was opened for: JIT compilation,
 * on by default, cost the rollup's largest statement 1.4 s of compiling on every run. Three transactions hold three
 * connections at once, so each is a new one, and each one's first statement must already see JIT off.
 */
test.skipIf(!onPostgres)(
  'every connection of the server has JIT compilation off from its first query',
  async () => {
    const { db, close } = await openPostgres(TEST_DATABASE_URL, 3);
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let seen = 0;
      const settings = Array.from({ length: 3 }, () =>
        db.transaction(async (tx) => {
          const [row] = rowsOf<{ jit: string; pid: number }>(
            await tx.execute(sql`select current_setting('jit') as jit, pg_backend_pid() as pid`),
          );
          if (++seen === 3) release();
          await held; // three connections in use at once
          return row;
        }),
      );
      const rows = await Promise.all(settings);
      expect(new Set(rows.map((r) => r.pid)).size).toBe(3);
      expect(rows.map((r) => r.jit)).toEqual(['off', 'off', 'off']);
    } finally {
      await close();
    }
  },
);

/**
 * The server's COPY sends its rows right behind the statement, before PostgreSQL asks for them (postgres.ts): when
 * the statement fails before the copy starts, PostgreSQL must drop those rows unread and the connection must serve
 * on. One connection, so each statement here meets what the failed ones left on it.
 */
test.skipIf(!onPostgres)(
  'a COPY refused before its rows are read leaves its connection clean for the next statements',
  async () => {
    const { db, close } = await openPostgres(TEST_DATABASE_URL, 1);
    try {
      const copy = copierOf(db)!;
      // The rows in chunks that cut a line: COPY's data is one stream, its chunks sent one after another.
      const rows = ['1\to', 'ne\n2\ttwo\n'].map((t) => new TextEncoder().encode(t));
      await db.execute(sql`create temp table if not exists copy_probe (n int, t text)`); // one connection: it stays
      for (let i = 0; i < 3; i++)
        await expect(copy('copy no_such_table_zg (n, t) from stdin', rows)).rejects.toMatchObject({
          code: '42P01',
        });
      // A row the COPY cannot take fails it inside copy mode: the statements after it in the text do not run.
      await expect(
        copy("copy copy_probe (n, t) from stdin; insert into copy_probe values (9, 'after')", [
          new TextEncoder().encode('x\ty\n'),
        ]),
      ).rejects.toMatchObject({ code: '22P02' });
      expect(rowsOf(await db.execute(sql`select 41 + 1 as n`))).toEqual([{ n: 42 }]);
      expect(
        await copy("copy copy_probe (n, t) from stdin; insert into copy_probe values (3, 'three')", rows),
      ).toEqual(['COPY 2', 'INSERT 0 1']);
      expect(rowsOf(await db.execute(sql`select n, t from copy_probe order by n`))).toEqual([
        { n: 1, t: 'one' },
        { n: 2, t: 'two' },
        { n: 3, t: 'three' },
      ]);
    } finally {
      await close();
    }
  },
);

/**
 * A start opens every connection of the server's pool and reads the reports' tables on each (`warmPool`), and the pool
 * keeps idle connections open: a report's reads go out on several connections at once, and on a new one each paid the
 * backend's start and its lookups of those tables first.
 */
test.skipIf(!onPostgres)(
  'a start opens every connection of the pool and reads the reports’ tables on each; idle ones stay open',
  async () => {
    const database = await freshDatabase({ migrated: true });
    const opened = await openPostgres(database.url!, 3);
    const watcher = new pg.Client({ connectionString: database.url });
    try {
      const pool = (opened.db as unknown as { $client: pg.Pool }).$client;
      expect(pool.totalCount).toBe(1); // the connection opened to check the server is there
      expect(pool.options.idleTimeoutMillis).toBe(0);
      await warmPool(opened.db);
      expect([pool.totalCount, pool.idleCount]).toEqual([3, 3]);
      // Each backend's last statement: the last of the reports' tables, read on every connection of the pool (the
      // test's own handle on the database has one more).
      await watcher.connect();
      const { rows } = await watcher.query(
        `select query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      const last = `select 1 from ${REPORT_TABLES.at(-1)} where tenant = 0 limit 1`;
      expect(rows.filter((r: { query: string }) => r.query === last)).toHaveLength(3);
    } finally {
      await watcher.end();
      await opened.close();
      await database.close();
    }
  },
);

test.skipIf(!onPostgres)(
  'a start’s pool warm-up that cannot open every connection releases those it opened: no slot is lost',
  async () => {
    const opened = await openPostgres(TEST_DATABASE_URL, 3);
    try {
      const pool = (opened.db as unknown as { $client: pg.Pool }).$client;
      const connect = pool.connect.bind(pool);
      let calls = 0;
      (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = () =>
        ++calls === 2 ? Promise.reject(new Error('refused')) : connect();
      await expect(warmPool(opened.db)).rejects.toThrow('refused');
      (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = connect;
      expect(pool.idleCount).toBe(pool.totalCount);
      // All three slots can be held at once again.
      const held = await Promise.all([connect(), connect(), connect()]);
      for (const c of held) c.release();
      expect(pool.totalCount).toBe(3);
    } finally {
      await opened.close();
    }
  },
);
