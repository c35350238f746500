import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../db/pglite';
import type { Database } from '../db/types';

/** Where a first start builds the database before moving it into the data directory. */
export const CREATING = '.zhanggui-creating';

/** What PostgreSQL's initdb leaves in a data directory: the only names cleared from one that holds no database. */
const CLUSTER_ENTRY = /^(base|global|pg_[a-z_]+(\.conf)?|postgresql(\.auto)?\.conf|postmaster\.(pid|opts))$/;

export class DataDirError extends Error {}

/**
 * Opens the embedded database in `dir`, creating it first when the directory holds none.
 *
 * PostgreSQL marks a finished data directory with PG_VERSION, but initdb writes that file early: a first start killed
 * while PGlite was creating the database used to leave a directory with PG_VERSION and half a cluster, which every
 * later start failed or hung on. So the database is created in `dir/.zhanggui-creating` and its files are moved into
 * `dir` (renames in one file system, so this works where `dir` is a mount point) with PG_VERSION last. A directory
 * without PG_VERSION holding only what initdb writes is a creation that stopped half-way and is cleared; anything
 * else in it stops the start, untouched.
 */
export async function openDataDir(dir: string): Promise<Database> {
  if (!existsSync(join(dir, 'PG_VERSION'))) await createDataDir(dir);
  const mb = sharedBuffersMb(bytesUnder(join(dir, 'base')));
  return openPglite(dir, { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${mb}MB`] });
}

/**
 * PGlite's shared buffers, sized to the databases' files: half as much again, from 32 MB up to PGlite's own 128 MB.
 * PostgreSQL clears its shared memory as it starts, so buffers far larger than the databases lengthen every start
 * for nothing; a database that outgrows its buffers reads from the files (the
 * operating system's cache), and the next start sizes them again.
 */
export function sharedBuffersMb(dataBytes: number): number {
  return Math.min(128, Math.max(32, Math.ceil((dataBytes * 1.5) / 2 ** 20)));
}

/** The bytes of the files under `dir`. */
function bytesUnder(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? bytesUnder(path) : entry.isFile() ? statSync(path).size : 0;
  }
  return bytes;
}

async function createDataDir(dir: string) {
  mkdirSync(dir, { recursive: true });
  // A file system's own lost+found (DATA_DIR a mount point) stays; PostgreSQL ignores it.
  const entries = readdirSync(dir).filter((name) => name !== 'lost+found');
  const stray = entries.filter((name) => name !== CREATING && !CLUSTER_ENTRY.test(name));
  if (stray.length > 0) {
    const shown = stray.slice(0, 3).join(', ') + (stray.length > 3 ? ', …' : '');
    throw new DataDirError(
      `it holds no database (no PG_VERSION) but is not empty (${shown}): empty it or choose another DATA_DIR`,
    );
  }
  for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true });
  const work = join(dir, CREATING);
  const pg = await PGlite.create({ dataDir: work });
  await pg.close();
  for (const name of readdirSync(work))
    if (name !== 'PG_VERSION') renameSync(join(work, name), join(dir, name));
  renameSync(join(work, 'PG_VERSION'), join(dir, 'PG_VERSION'));
  rmSync(work, { recursive: true, force: true });
}
