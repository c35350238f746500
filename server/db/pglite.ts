import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import * as schema from './schema';
import type { Database } from './types';

/**
 * The embedded database: a directory in Node (`DATA_DIR`), `idb://…` in the browser (demo mode),
 * or memory when `dataDir` is undefined (tests).
 */
export async function openPglite(
  dataDir?: string,
  options: { relaxedDurability?: boolean } = {},
): Promise<Database> {
  const client = await PGlite.create({ dataDir, relaxedDurability: options.relaxedDurability });
  return {
    db: drizzle(client, { schema }) as unknown as Database['db'],
    driver: 'pglite',
    close: () => client.close(),
  };
}
