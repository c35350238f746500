import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Logger } from '../core/logger';
import * as schema from '../db/schema';
import type { Database } from '../db/types';

/**
 * A real PostgreSQL through `DATABASE_URL`: a pool, so several requests run at once.
 *
 * A PostgreSQL restart must not end the process. node-postgres reports a dead connection as an `error` event on
 * the client, and an `error` event nobody listens to throws: the pool listens on its idle clients, and every
 * client gets its own listener the moment it is created, so a client checked out by a transaction is covered
 * too. The queries in flight fail (the app answers 50300); a broken client is not reused (pg-pool drops it), and
 * the next request opens a fresh connection, so the service resumes as soon as PostgreSQL is back.
 */
export async function openPostgres(url: string, max = 10, logger?: Logger): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // While PostgreSQL is down a request fails fast rather than queueing for a connection forever.
    connectionTimeoutMillis: 10_000,
  });
  const report = (err: Error) =>
    logger?.warn(
      { err: { message: err.message, code: (err as { code?: string }).code } },
      'database connection lost',
    );
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  const client = await pool.connect(); // fail at start, with a clear line, when the server is unreachable
  client.release();
  return {
    db: drizzle(pool, { schema }) as unknown as Database['db'],
    driver: 'postgres',
    close: () => pool.end(),
  };
}
