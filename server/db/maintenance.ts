import { sql } from 'drizzle-orm';
import { rowsOf } from './migrate';
import type { Db } from './types';

/** The schema's own tables in `pg_class c` (the app's schema, not the catalogs). */
const OF_SCHEMA = sql`c.relnamespace = current_schema()::regnamespace`;
/** Ordinary permanent tables (partitions included, partitioned parents, views and temporary tables not). */
const ORDINARY = sql`c.relkind = 'r' and c.relpersistence = 'p'`;
/** A table's name as an SQL identifier. */
const ident = (t: string) => `"${t.replace(/"/g, '""')}"`;

/**
 * Analyses the tables whose planner statistics are missing or stale: never analysed, or grown by more than a fifth
 * (and 8 pages) since; `tables` names them, or every ordinary table of the schema when left out. Autovacuum may be
 * off or behind on PostgreSQL and PGlite has none, and a statement planned on a never-analysed table estimates one
 * row (a day's rollup planned that way took many times as long). Sizes are read from the files
 * (`pg_relation_size`), which both databases keep current, not from the cumulative statistics, which PGlite reports
 * late. Growth by a fifth analyses a table that grows all day a few times a day; each samples 9,000 rows, whatever
 * the table's size. Returns the tables analysed.
 */
export async function analyzeStale(db: Db, tables?: string[]): Promise<string[]> {
  if (tables && !tables.length) return [];
  const which = tables
    ? sql`c.relname in (${sql.join(
        tables.map((t) => sql`${t}`),
        sql`, `,
      )})`
    : OF_SCHEMA;
  const stale = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_class c
      where ${which} and ${ORDINARY}
        and (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.2 + 8)`),
  ).map((r) => r.name);
  if (stale.length)
    await db.transaction(async (tx) => {
      // 9,000 rows rather than the default 30,000: plans need sizes and rough distinct counts, and the default's
      // sample makes analysing a day of events several times as long.
      await tx.execute(sql`set local default_statistics_target = 30`);
      for (const t of stale) await tx.execute(sql.raw(`analyze ${ident(t)}`));
    });
  return stale;
}

/** How often the timer vacuums where no autovacuum runs (`vacuumWithoutAutovacuum`). */
export const VACUUM_EVERY_MS = 10 * 60_000;

/** Whether PostgreSQL's autovacuum is at work here: not on PGlite (one process), nor with `autovacuum = off`. */
export async function autovacuumRuns(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ on: boolean }>(
    await db.execute(
      sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as on`,
    ),
  );
  return !!row?.on;
}

/**
 * Vacuums every ordinary table of the schema (partitions included), one statement each (VACUUM runs outside a
 * transaction). Without it, which PGlite never does, the visibility map is never set, so an index-only scan reads the
 * table for every entry it walks (the lists' deep pages and status walks read
 * the table instead of the index alone), and dead rows wait for page pruning. A vacuum skips the pages marked all
 * visible, so one of a table nobody wrote since is a look at its map. Returns the tables vacuumed.
 */
export async function vacuumAll(db: Db): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_class c
      where ${OF_SCHEMA} and ${ORDINARY} order by c.relname`),
  ).map((r) => r.name);
  for (const t of tables) await db.execute(sql.raw(`vacuum ${ident(t)}`));
  return tables;
}

/** `vacuumAll` where no autovacuum runs (`autovacuumRuns`); nothing where one does. */
export async function vacuumWithoutAutovacuum(db: Db): Promise<string[]> {
  return (await autovacuumRuns(db)) ? [] : vacuumAll(db);
}
