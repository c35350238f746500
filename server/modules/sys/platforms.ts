import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { invalidField } from '../../core/errors';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { readSettings } from './settings';

/** The platform keys of a tenant's settings (SPEC.md §3), with their names. */
export async function platformsOf(db: Executor, tenant: number): Promise<Map<number, string>> {
  const settings = await readSettings(db, tenant);
  const list = Array.isArray(settings.platforms) ? settings.platforms : [];
  return new Map(list.map((p: { key: number; name: string }) => [Number(p.key), String(p.name)]));
}

/**
 * Named query for the modules whose records name platforms (notices, promotion apps, statistics): every key must be
 * one of the tenant's platforms, or 40000 naming `<field>.<index>` (or what `field` makes of the index). Keys in `kept` (what the record already had)
 * pass even when the platform has since been removed, so a record can still be saved without losing them.
 */
export async function assertKnownPlatforms(
  db: Executor,
  tenant: number,
  keys: readonly number[],
  field: string | ((index: number) => string),
  kept: readonly number[] = [],
) {
  if (!keys.length) return;
  const known = await platformsOf(db, tenant);
  const old = new Set(kept);
  const i = keys.findIndex((k) => !known.has(k) && !old.has(k));
  if (i >= 0) throw invalidField(typeof field === 'string' ? `${field}.${i}` : field(i), 'field.notFound');
}

/**
 * `{key → rows of the tenant whose platforms contain it}` for a table with `tenant` and `platforms` columns (each
 * module calls it on its own table; the GIN index on `platforms` serves it).
 */
export async function countPerPlatform(
  db: Executor,
  table: PgTable,
  tenant: number,
  keys: number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>(keys.map((k) => [k, 0]));
  if (!keys.length) return out;
  const query: SQL = sql`
    select k.key::int as key, count(t.*)::int as n
    from unnest(${sql.param(keys)}::integer[]) as k(key)
    join ${table} t on t.tenant = ${tenant} and t.platforms @> array[k.key]
    group by k.key`;
  for (const r of rowsOf<{ key: number; n: number }>(await db.execute(query)))
    out.set(Number(r.key), Number(r.n));
  return out;
}
