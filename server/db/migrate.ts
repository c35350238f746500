import { sql } from 'drizzle-orm';
import type { Db } from './types';

/**
 * The SQL migrations (hand-written since 0007: docs/migrations.md), bundled as text, so the same migrator runs in
 * Node, in tests and in the browser (demo mode) without a filesystem. tests/api/schema-drift.test.ts holds them
 * against the modules' Drizzle declarations.
 */
const files = import.meta.glob('./migrations/*.sql', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export const migrations = Object.entries(files)
  .map(([path, text]) => ({ name: path.replace(/^.*\/|\.sql$/g, ''), text }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** Any 64-bit number that is ours: two instances starting at once on one PostgreSQL wait on it. */
const MIGRATION_LOCK = 7_270_772_011;

/**
 * Is every migration applied? One read of `_migrations`, no transaction, no lock: the common start (a database at
 * the newest migration) costs one cheap query. False when the table is missing (an empty database) or any is missing.
 */
async function upToDate(db: Db): Promise<boolean> {
  let names: Set<string>;
  try {
    names = new Set(
      rowsOf<{ name: string }>(await db.execute(sql`select name from _migrations`)).map((r) => r.name),
    );
  } catch {
    return false; // no _migrations table yet: the locked path below creates it
  }
  return migrations.every((m) => names.has(m.name));
}

/**
 * Applies the migrations not yet applied, in order, in one transaction under an advisory lock:
 * starting twice is harmless, and two instances starting at once serialize instead of racing.
 * Returns the names applied now. A database already at the newest migration answers [] after one read.
 */
export async function migrate(db: Db): Promise<string[]> {
  if (await upToDate(db)) return [];
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(
      sql`create table if not exists _migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = await tx.execute<{ name: string }>(sql`select name from _migrations`);
    const applied = new Set(rowsOf<{ name: string }>(done).map((r) => r.name));
    const now: string[] = [];
    for (const m of migrations) {
      if (applied.has(m.name)) continue;
      for (const statement of m.text.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into _migrations (name) values (${m.name})`);
      now.push(m.name);
    }
    return now;
  });
}

/** node-postgres answers `{rows}`, PGlite answers `{rows}` too; this keeps callers from caring. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
