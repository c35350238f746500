import { PGlite, type PGliteOptions, types } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { byteaFromText, byteaToText } from './bytea';
import { schema } from './schema';
import type { Database } from './types';

/** How PGlite reads and writes values where its own way is slow: bytea in one pass (bytea.ts). */
export const PGLITE_TYPES = {
  parsers: { [types.BYTEA]: (text: string) => byteaFromText(text, types.parsers[types.BYTEA]) },
  serializers: { [types.BYTEA]: (bytes: Uint8Array) => byteaToText(bytes) },
} satisfies Pick<PGliteOptions, 'parsers' | 'serializers'>;

/**
 * The embedded database: a directory in Node (`DATA_DIR`), `idb://…` in the browser (demo mode),
 * or memory when `dataDir` is undefined (tests). Demo mode's first visit loads its prebuilt database (`loadDataDir`).
 */
export async function openPglite(
  dataDir?: string,
  options: Pick<PGliteOptions, 'relaxedDurability' | 'loadDataDir' | 'initdbWasmModule' | 'startParams'> = {},
): Promise<Database> {
  const client = await PGlite.create({ dataDir, ...options, ...PGLITE_TYPES });
  return {
    db: drizzle(client, { schema }) as unknown as Database['db'],
    driver: 'pglite',
    close: () => client.close(),
  };
}
