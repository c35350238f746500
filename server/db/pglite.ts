import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import * as schema from './schema';
import type { Database } from './types';

/**
 * The embedded database: a directory in Node (`DATA_DIR`), `idb://…` in the browser (demo mode),
 * or memory when `dataDir` is undefined (tests). Demo mode's first visit loads its prebuilt database (`loadDataDir`).
 */
export async function openPglite(
  dataDir?: string,
  options: Pick<PGliteOptions, 'relaxedDurability' | 'loadDataDir' | 'initdbWasmModule' | 'startParams'> = {},
): Promise<Database> {
  const client = await PGlite.create({ dataDir, ...options });
  return {
    db: drizzle(client, { schema }) as unknown as Database['db'],
    driver: 'pglite',
    close: () => client.close(),
  };
}
