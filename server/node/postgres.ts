import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../db/schema';
import type { Database } from '../db/types';

/** A real PostgreSQL through `DATABASE_URL`: a pool, so several requests run at once. */
export async function openPostgres(url: string, max = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {}); // an idle client's error is reported on its next use
  const client = await pool.connect(); // fail at start, with a clear line, when the server is unreachable
  client.release();
  return {
    db: drizzle(pool, { schema }) as unknown as Database['db'],
    driver: 'postgres',
    close: () => pool.end(),
  };
}
