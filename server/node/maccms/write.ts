import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';

/**
 * Batch writes as arrays: one `unnest` per statement, whatever the batch's size, so no statement comes near
 * PostgreSQL's 65,535 parameters. Tables and columns are the move's own constants, never input.
 */

/** `texts`: a text[] column, each row's array sent as its JSON (arrays of arrays cannot be unnested). */
export type PgType = 'int' | 'bigint' | 'text' | 'bool' | 'timestamptz' | 'date' | 'texts';
export type Col = readonly [name: string, type: PgType];

const ARRAY_TYPE: Record<PgType, string> = {
  int: 'integer[]',
  bigint: 'bigint[]',
  text: 'text[]',
  bool: 'boolean[]',
  timestamptz: 'timestamptz[]',
  date: 'date[]',
  texts: 'text[]',
};

/** `unnest($1::integer[], $2::text[], …) as u(a, b, …)`: the rows as a relation. */
export function unnestRows(cols: readonly Col[], rows: readonly unknown[][]): SQL {
  const arrays = cols.map(
    ([, type], j) =>
      sql`${sql.param(rows.map((r) => (r[j] instanceof Date ? (r[j] as Date).toISOString() : r[j])))}::${sql.raw(ARRAY_TYPE[type])}`,
  );
  return sql`unnest(${sql.join(arrays, sql`, `)}) as u(${sql.raw(cols.map(([c]) => `"${c}"`).join(', '))})`;
}

const columnValue = (c: string, t: PgType) =>
  t === 'texts' ? `array(select jsonb_array_elements_text(u."${c}"::jsonb))` : `u."${c}"`;

function selectList(cols: readonly Col[]): SQL {
  return sql.raw(cols.map(([c, t]) => columnValue(c, t)).join(', '));
}

/** New ids of a serial key, taken before the insert so each row's id is known without relying on RETURNING's order. */
export async function takeIds(ex: Executor, table: string, n: number): Promise<number[]> {
  if (!n) return [];
  const rows = rowsOf<{ id: number }>(
    await ex.execute(
      sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n}::int)`,
    ),
  );
  return rows.map((r) => Number(r.id));
}

export async function insertRows(
  ex: Executor,
  table: string,
  cols: readonly Col[],
  rows: readonly unknown[][],
) {
  if (!rows.length) return;
  await ex.execute(
    sql`insert into ${sql.raw(`"${table}"`)} (${sql.raw(cols.map(([c]) => `"${c}"`).join(', '))}) select ${selectList(cols)} from ${unnestRows(cols, rows)}`,
  );
}

/** Updates rows by `id` (the first column); `bump` adds `version = version + 1, updated_at = …` where the table has them. */
export async function updateRows(
  ex: Executor,
  table: string,
  cols: readonly Col[],
  rows: readonly unknown[][],
  bump = true,
) {
  if (!rows.length) return;
  const sets = cols
    .slice(1)
    .map(([c, t]) => `"${c}" = ${columnValue(c, t)}`)
    .concat(bump ? ['"version" = t."version" + 1', '"updated_at" = now()'] : []);
  await ex.execute(
    sql`update ${sql.raw(`"${table}"`)} t set ${sql.raw(sets.join(', '))} from ${unnestRows(cols, rows)} where t.id = u."${sql.raw(cols[0][0])}"`,
  );
}

export const digestOf = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex');

/** The mapping of MacCMS ids of a kind to our rows that still exist in `table` (a row deleted here is moved again). */
export async function mapped(
  ex: Executor,
  tenant: number,
  kind: string,
  table: string,
  ids: readonly number[],
): Promise<Map<number, { ourId: number; digest: string }>> {
  const out = new Map<number, { ourId: number; digest: string }>();
  if (!ids.length) return out;
  const rows = rowsOf<{ maccms_id: string | number; our_id: number; digest: string }>(
    await ex.execute(sql`select m.maccms_id, m.our_id, m.digest from maccms_ids m
      join ${sql.raw(`"${table}"`)} t on t.id = m.our_id
      where m.tenant = ${tenant} and m.kind = ${kind} and m.maccms_id = any(${sql.param([...ids])}::bigint[])`),
  );
  for (const r of rows) out.set(Number(r.maccms_id), { ourId: Number(r.our_id), digest: r.digest });
  return out;
}

export async function remember(
  ex: Executor,
  tenant: number,
  kind: string,
  rows: readonly { mid: number; ourId: number; digest: string }[],
) {
  if (!rows.length) return;
  const cols: Col[] = [
    ['maccms_id', 'bigint'],
    ['our_id', 'int'],
    ['digest', 'text'],
  ];
  await ex.execute(sql`insert into maccms_ids (tenant, kind, maccms_id, our_id, digest)
    select ${tenant}::int, ${kind}::text, u.maccms_id, u.our_id, u.digest from ${unnestRows(
      cols,
      rows.map((r) => [r.mid, r.ourId, r.digest]),
    )}
    on conflict (tenant, kind, maccms_id) do update set our_id = excluded.our_id, digest = excluded.digest, moved_at = now()`);
}
