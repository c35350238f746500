import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import { openPostgres, ResilientPool } from '../../server/node/postgres';
import { onPostgres, TEST_DATABASE_URL } from './harness';

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
