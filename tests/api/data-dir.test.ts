import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { CREATING, DataDirError, openDataDir, sharedBuffersMb } from '../../server/node/data-dir';

// The embedded database's directory on a first start (server/node/data-dir.ts). PGlite only: api, not api-pg.
// Each creation runs initdb: seconds on a quiet machine, tens of seconds on a busy one, so the budget is wide.
const SLOW = 300_000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'zhanggui-datadir-'));
  dirs.push(d);
  return d;
};

async function works(dir: string) {
  const database = await openDataDir(dir);
  try {
    const r = await database.db.execute(sql`select 41 + 1 as x`);
    expect((r as unknown as { rows: { x: number }[] }).rows[0].x).toBe(42);
  } finally {
    await database.close();
  }
  expect(readdirSync(dir)).toContain('PG_VERSION');
  expect(readdirSync(dir)).not.toContain(CREATING);
}

test('an existing empty directory gets a database; a second open finds it', { timeout: SLOW }, async () => {
  const dir = freshDir();
  mkdirSync(join(dir, 'lost+found')); // DATA_DIR a mount point
  await works(dir);
  expect(readdirSync(dir)).toContain('lost+found');
  const database = await openDataDir(dir);
  await database.db.execute(sql`create table kept (x int)`);
  await database.close();
  const again = await openDataDir(dir);
  await again.db.execute(sql`select * from kept`);
  // Shared buffers sized to the databases' files (about 22 MB new), not PGlite's 128 MB.
  const shown = await again.db.execute(sql`show shared_buffers`);
  const buffers = (shown as unknown as { rows: { shared_buffers: string }[] }).rows[0].shared_buffers;
  expect(buffers).toMatch(/^\d+MB$/);
  expect(Number.parseInt(buffers, 10)).toBeGreaterThanOrEqual(32);
  expect(Number.parseInt(buffers, 10)).toBeLessThan(64);
  await again.close();
});

test("shared buffers: half as much again as the databases' files, from 32 MB to PGlite's 128 MB", () => {
  const MB = 2 ** 20;
  expect(sharedBuffersMb(0)).toBe(32);
  expect(sharedBuffersMb(25 * MB)).toBe(38);
  expect(sharedBuffersMb(60 * MB)).toBe(90);
  expect(sharedBuffersMb(85.4 * MB)).toBe(128);
  expect(sharedBuffersMb(4096 * MB)).toBe(128);
});

test('a creation stopped while its files were being moved in is cleared and done again', {
  timeout: SLOW,
}, async () => {
  const dir = freshDir();
  const pg = await PGlite.create({ dataDir: join(dir, CREATING) });
  await pg.close();
  // Stopped half-way through the moves: some of the cluster in dir, the rest (PG_VERSION with it) still aside.
  const moved = readdirSync(join(dir, CREATING))
    .filter((n) => n !== 'PG_VERSION')
    .slice(0, 6);
  for (const n of moved) renameSync(join(dir, CREATING, n), join(dir, n));
  await works(dir);
});

test('a directory with files of its own and no database is refused, naming them, and left as it was', async () => {
  const dir = freshDir();
  mkdirSync(join(dir, 'base'));
  writeFileSync(join(dir, 'photos.zip'), 'x');
  const err = await openDataDir(dir).catch((e) => e);
  expect(err).toBeInstanceOf(DataDirError);
  expect(err.message).toContain('photos.zip');
  expect(readdirSync(dir).sort()).toEqual(['base', 'photos.zip']);
});
