import { sql } from 'drizzle-orm';
import { rowsOf } from './migrate';
import type { Db } from './types';

/**
 * Analyses the tables whose planner statistics are missing or stale: never analysed, or grown by more than a fifth
 * (and 8 pages) since; `tables` names them, or every ordinary table of the schema when left out. Autovacuum may be
 * off or behind on PostgreSQL and PGlite has none, and a statement planned on a never-analysed table estimates one
 * row (a day's rollup planned that way once took 291 s instead of 7). Sizes are read from the files
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
    : sql`c.relnamespace = current_schema()::regnamespace`;
  const stale = rowsOf<{ name: string }>(
    await db.execute(sql`select c.relname as name from pg_class c
      where ${which} and c.relkind = 'r' and c.relpersistence = 'p'
        and (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.2 + 8)`),
  ).map((r) => r.name);
  if (stale.length)
    await db.transaction(async (tx) => {
      // 9,000 rows rather than the default 30,000: plans need sizes and rough distinct counts, and analysing a day of
      // 200,000 events took 0.5 s at the default.
      await tx.execute(sql`set local default_statistics_target = 30`);
      for (const t of stale) await tx.execute(sql.raw(`analyze "${t.replace(/"/g, '""')}"`));
    });
  return stale;
}
