// Node entry (built by scripts/demo.mjs with Vite, run once per build): migrates and seeds an in-memory PGlite
// as the demo's first visit would, and writes its data directory as a tar and the manifest the page is built
// with (mocks/snapshot.ts). Argument: the directory to write `demo-db.tar` and `demo-db.json` into.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { memoryImageStorage } from '../server/core/image-storage';
import { migrate } from '../server/db/migrate';
import { PGLITE_TYPES } from '../server/db/pglite';
import { schema } from '../server/db/schema';
import type { Db } from '../server/db/types';
import { demoConfig, dropRawEvents, migrationsHash, seedDemo } from './snapshot';

const out = process.argv[2];
if (!out) throw new Error('usage: snapshot-build <directory>');
const started = Date.now();
// 1 MB WAL segments, not 16: a fresh database's WAL is one segment, and the page writes each changed file whole
// to IndexedDB after every statement.
const client = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'], ...PGLITE_TYPES });
const db = drizzle(client, { schema }) as unknown as Db;
const now = new Date();
await migrate(db);
await seedDemo(db, demoConfig(), memoryImageStorage(), now);
// Smaller on the wire and in the visitor's IndexedDB: the raw event stream goes (the reports read only its daily
// and hourly rollups, which stay; the rollup reads raw events only for a day that gets new ones), the template
// databases go (the demo never creates a database), the seed's dead rows are compacted away, and the WAL is one
// segment holding only the last checkpoint.
await dropRawEvents(db);
await client.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
await client.exec('drop database template1');
await client.exec('drop database template0');
await client.exec('vacuum full');
await client.exec('select pg_switch_wal()');
await client.exec('checkpoint');
const [wal] = (
  await client.query<{ file_name: string; file_offset: number }>(
    'select file_name, file_offset from pg_walfile_name_offset(pg_current_wal_insert_lsn())',
  )
).rows;
const fs = client.Module.FS;
const pgWal = '/pglite/data/pg_wal';
for (const name of fs.readdir(pgWal) as string[])
  if (/^[0-9A-F]{24}$/.test(name) && name !== wal.file_name) fs.unlink(`${pgWal}/${name}`);
// Past the page of the last record: recycled bytes of old segments, never read (recovery stops at the first page
// that is not this segment's), zeroed so they compress away.
const segment = fs.readFile(`${pgWal}/${wal.file_name}`) as Uint8Array;
segment.fill(0, Math.ceil((wal.file_offset + 1) / 8192) * 8192);
fs.writeFile(`${pgWal}/${wal.file_name}`, segment);
const tar = await client.dumpDataDir('none');
await client.close();
const bytes = new Uint8Array(await tar.arrayBuffer());
writeFileSync(join(out, 'demo-db.tar'), bytes);
writeFileSync(
  join(out, 'demo-db.json'),
  JSON.stringify({ migrations: await migrationsHash(), seededAt: now.toISOString(), bytes: bytes.length }),
);
process.stdout.write(
  `Demo database snapshot: ${(bytes.length / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
