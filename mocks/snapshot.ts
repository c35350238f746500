import { sql } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE, dayOf, daysIn } from '../common/period';
import { type Config, loadConfig } from '../server/config';
import type { ImageStorage } from '../server/core/image-storage';
import { migrations, rowsOf } from '../server/db/migrate';
import type { Db } from '../server/db/types';
import { rawPartitions } from '../server/modules/statistics/rollup';
import { seed } from '../server/seed';
import { seedCovers } from '../server/seed/covers';
import { DEMO_CREDENTIALS } from './credentials';

/**
 * Demo mode's prebuilt database (issue #17). `npm run demo` migrates and seeds a PGlite in Node
 * (mocks/snapshot-build.ts), dumps its data directory to a tar served beside the assets, and compiles this
 * manifest into the page (VITE_DEMO_SNAPSHOT). A first visit loads that tar instead of running initdb, every
 * migration and the seed in the browser, then moves the sample data's dates to today (`shiftDates`).
 * The snapshot is used only while it was built from exactly the migrations the page carries (`snapshotFits`);
 * otherwise the page migrates and seeds as before.
 */
export interface DemoSnapshot {
  /** The tar's URL (an asset: its name carries its content's hash). */
  url: string;
  /** Its size in bytes (the progress screen's "how far"). */
  bytes: number;
  /** `migrationsHash()` of the migrations it was built with. */
  migrations: string;
  /** The clock the seed ran with (ISO): the sample dates are moved by the whole days since. */
  seededAt: string;
}

export const DEMO_SEED = 42;

/** The demo's configuration, the same at build time and in the page (the seed hashes passwords with it). */
export function demoConfig(): Config {
  return loadConfig({ ADMIN_PASSWORD: DEMO_CREDENTIALS.password, PASSWORD_ITERATIONS: '100000' });
}

/** SHA-256 (hex) over every migration's name and text, in order: what a snapshot was built with. */
export async function migrationsHash(list: readonly { name: string; text: string }[] = migrations) {
  const text = list.map((m) => `${m.name}\n${m.text}\n\u0000`).join('');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether `snapshot` was built from the migrations this page carries (a stale one is not used). */
export async function snapshotFits(
  snapshot: DemoSnapshot | null | undefined,
  list: readonly { name: string; text: string }[] = migrations,
): Promise<boolean> {
  return !!snapshot && snapshot.migrations === (await migrationsHash(list));
}

/** The sample data, as the demo has it: every section seeded, the operators' password `demo1234`. */
export async function seedDemo(db: Db, config: Config, images: ImageStorage, now?: Date) {
  return seed(db, config, { seed: DEMO_SEED, images, samplePassword: DEMO_CREDENTIALS.password, now });
}

/**
 * The sample covers into the page's image store: the snapshot has the movies' cover paths, not the images (they
 * live in IndexedDB beside the database). Same seed, same paths.
 */
export function restoreCovers(images: ImageStorage, config: Config) {
  return seedCovers(images, config, DEMO_SEED);
}

/**
 * Leaves the raw event stream out of the snapshot (its day partitions dropped): the reports read only the daily
 * and hourly rollups, which stay; the rollup reads raw events only for a day that receives new ones.
 */
export async function dropRawEvents(db: Db) {
  for (const { name } of await rawPartitions(db)) await db.execute(sql`drop table ${sql.identifier(name)}`);
}

/**
 * Days from the seed's day to today in the tenant's time zone (0 when today is earlier): how far `shiftDates` moves
 * the data, so that its last day is today. Calendar days, not 24-hour periods: a snapshot seeded at 23:48 and opened
 * at 00:25 moves a day, where 24-hour periods left today without its data (and its reports empty).
 */
export function daysSince(seededAt: string, now: Date, timeZone = DEFAULT_TIME_ZONE): number {
  const seeded = dayOf(new Date(seededAt), timeZone);
  const today = dayOf(now, timeZone);
  return today > seeded ? daysIn(seeded, today) - 1 : 0;
}

/**
 * Moves every date and instant of the sample data `days` days on, so a snapshot built last week looks like it
 * was seeded today: every `date`, `timestamp` and `timestamptz` column of every table of the public schema
 * (whole days keep each instant on its day and hour in the tenant's time zone, and every period's rollup
 * matching its events). One transaction, without triggers. Columns under a unique index first go far out of
 * range and then back, so no value meets a row not moved yet. Partitioned tables must be empty (the snapshot
 * has no raw events).
 */
export async function shiftDates(db: Db, days: number): Promise<number> {
  if (!Number.isInteger(days) || days <= 0) return 0;
  return db.transaction(async (tx) => {
    // Plain rewrites of stored values: no trigger fires (no count or version moves), no key is re-checked.
    await tx.execute(sql`set local session_replication_role = replica`);
    const columns = rowsOf<{ table: string; column: string; type: string; uniq: boolean; kind: string }>(
      await tx.execute(sql`
        select c.relname as "table", a.attname as "column", format_type(a.atttypid, null) as "type",
          c.relkind as "kind",
          exists (
            select 1 from pg_index i where i.indisunique and i.indrelid = c.oid and a.attnum = any(i.indkey)
          ) as uniq
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        where c.relkind in ('r', 'p') and not c.relispartition
          and a.atttypid in ('date'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype)
        order by c.relname, a.attnum`),
    );
    const byTable = new Map<string, typeof columns>();
    for (const c of columns) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
    const far = 1_000_000; // days: beyond any sample date, well inside PostgreSQL's date range
    const moved = (c: (typeof columns)[number], by: number) =>
      c.type === 'date'
        ? sql`${sql.identifier(c.column)} = ${sql.identifier(c.column)} + ${by}::int`
        : sql`${sql.identifier(c.column)} = ${sql.identifier(c.column)} + make_interval(days => ${by}::int)`;
    for (const [table, cols] of byTable) {
      if (cols[0].kind === 'p') {
        // Rows would have to change partitions (named by day): the snapshot leaves its raw events out.
        const [{ n }] = rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
        );
        if (n) throw new Error(`shiftDates: the partitioned table ${table} holds rows`);
        continue;
      }
      const unique = cols.filter((c) => c.uniq);
      const first = cols.map((c) => moved(c, c.uniq ? days + far : days));
      await tx.execute(sql`update ${sql.identifier(table)} set ${sql.join(first, sql`, `)}`);
      if (unique.length)
        await tx.execute(
          sql`update ${sql.identifier(table)} set ${sql.join(
            unique.map((c) => moved(c, -far)),
            sql`, `,
          )}`,
        );
    }
    return columns.length;
  });
}
