import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { CopyData, copyField } from '../../db/copy-in';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { copyInOn } from '../postgres';

/**
 * Batch writes: new rows by COPY (`copyRows`), updates as arrays (one `unnest` per statement, whatever the batch's
 * size, so no statement comes near PostgreSQL's 65,535 parameters). Tables and columns are the move's own constants,
 * never input.
 */

/**
 * `texts`: a text[] column, each row's value a string[] (sent to an `unnest` as its JSON: arrays of arrays cannot be
 * unnested; to COPY as an array literal); `ints`: an integer[] column, each row's array as its literal (`{1,2}`).
 */
export type PgType = 'int' | 'bigint' | 'text' | 'bool' | 'timestamptz' | 'date' | 'texts' | 'ints';
export type Col = readonly [name: string, type: PgType];

const ARRAY_TYPE: Record<PgType, string> = {
  int: 'integer[]',
  bigint: 'bigint[]',
  text: 'text[]',
  bool: 'boolean[]',
  timestamptz: 'timestamptz[]',
  date: 'date[]',
  texts: 'text[]',
  ints: 'text[]',
};

/** `unnest($1::integer[], $2::text[], …) as u(a, b, …)`: the rows as a relation. */
export function unnestRows(cols: readonly Col[], rows: readonly unknown[][]): SQL {
  const arrays = cols.map(
    ([, type], j) =>
      sql`${sql.param(rows.map((r) => (r[j] instanceof Date ? (r[j] as Date).toISOString() : type === 'texts' ? JSON.stringify(r[j]) : r[j])))}::${sql.raw(ARRAY_TYPE[type])}`,
  );
  return sql`unnest(${sql.join(arrays, sql`, `)}) as u(${sql.raw(cols.map(([c]) => `"${c}"`).join(', '))})`;
}

const columnValue = (c: string, t: PgType) =>
  t === 'texts'
    ? `array(select jsonb_array_elements_text(u."${c}"::jsonb))`
    : t === 'ints'
      ? `u."${c}"::integer[]`
      : `u."${c}"`;

/** An `ints` column's value. */
export const intsOf = (ids: readonly number[]) => `{${ids.join(',')}}`;

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

/**
 * COPY on the connection a transaction holds, where it has one: node-postgres' client (COPY FROM STDIN) or PGlite's
 * (COPY from its /dev/blob); undefined elsewhere. `send` takes the lines of COPY's text format as built by `CopyData`.
 */
export function txCopier(ex: Executor) {
  // Drizzle's transaction runs on `session.client`: a checked-out node-postgres client, or PGlite's transaction.
  const client = (ex as { session?: { client?: unknown } }).session?.client;
  const pglite = client && !(client instanceof pg.Client) && typeof (client as PgliteTx).exec === 'function';
  if (!(client instanceof pg.Client || pglite)) return undefined;
  return {
    async send(table: string, cols: readonly Col[], data: CopyData) {
      const text = `copy "${table}" (${cols.map(([c]) => `"${c}"`).join(', ')})`;
      if (client instanceof pg.Client) await copyInOn(client, `${text} from stdin`, data.data);
      else
        await (client as PgliteTx).query(`${text} from '/dev/blob'`, [], {
          blob: new Blob(data.data as BlobPart[]),
        });
    },
  };
}

/**
 * Rows in with COPY where the transaction's connection can (`txCopier`), elsewhere `insertRows`. COPY parses each
 * row's text once, where an insert from arrays builds, sends and parses the array literals first. Says which way it
 * went.
 */
export async function copyRows(
  ex: Executor,
  table: string,
  cols: readonly Col[],
  rows: readonly unknown[][],
): Promise<'copy' | 'insert' | 'none'> {
  if (!rows.length) return 'none';
  const copier = txCopier(ex);
  if (!copier) return insertRows(ex, table, cols, rows).then(() => 'insert');
  const types = cols.map(([, t]) => t);
  const data = new CopyData();
  for (const r of rows) {
    let line = '';
    for (let j = 0; j < r.length; j++)
      line += `${j ? '\t' : ''}${copyValue(types[j] === 'texts' ? textArray(r[j] as string[] | null) : r[j])}`;
    data.add(`${line}\n`);
  }
  await copier.send(table, cols, data);
  return 'copy';
}

interface PgliteTx {
  query(text: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
  exec(text: string): Promise<unknown>;
}

/** A text[] as PostgreSQL's array literal: every element quoted, its quotes and backslashes escaped. */
export const textArray = (items: readonly string[] | null) =>
  items === null ? null : `{${items.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

const copyValue = (v: unknown) =>
  copyField(
    v === null || v === undefined
      ? null
      : typeof v === 'boolean'
        ? v
          ? 't'
          : 'f'
        : v instanceof Date
          ? v.toISOString()
          : (v as string | number),
  );

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

/** Columns a row gets when it is made and keeps after: never part of an update. */
const INSERT_ONLY = new Set(['created_at', 'tenant']);

/**
 * The insert and update of a kind whose rows are one row of one table: `rowOf` gives the row in `cols`' order, id
 * first; an update writes every column but `created_at` and `tenant`.
 */
export function rowWriter<V, C>(
  table: string,
  cols: readonly Col[],
  rowOf: (value: V, id: number, ctx: C) => unknown[],
) {
  const kept = cols.flatMap(([c], j) => (INSERT_ONLY.has(c) ? [] : [j]));
  const updateCols = kept.map((j) => cols[j]);
  return {
    insert: async (ex: Executor, items: readonly { value: V; ourId: number }[], ctx: C) => {
      await copyRows(
        ex,
        table,
        cols,
        items.map((i) => rowOf(i.value, i.ourId, ctx)),
      );
    },
    update: (ex: Executor, items: readonly { value: V; ourId: number }[], ctx: C) =>
      updateRows(
        ex,
        table,
        updateCols,
        items.map((i) => {
          const row = rowOf(i.value, i.ourId, ctx);
          return kept.map((j) => row[j]);
        }),
      ),
  };
}

/**
 * A first move into empty tables, in one transaction: they are locked for it, their secondary indexes, their primary
 * and unique keys that no foreign key needs, and their foreign keys are dropped, and the named statement triggers
 * (counts kept in step row by row) disabled; `restore` builds the indexes and keys in one sort each, checks each
 * foreign key in one join and enables the triggers; the caller recomputes what the triggers kept. As in
 * server/seed/bulk.ts. A failure before `restore` rolls all of it back with the transaction.
 */
export async function loosenTables(
  ex: Executor,
  tables: readonly string[],
  triggerFunctions: readonly string[],
): Promise<() => Promise<void>> {
  // Held to the end of the transaction: nobody else writes these tables nor takes their sequences' next values by
  // inserting, which lets the move hand out their ids itself (ownIds).
  await ex.execute(sql.raw(`lock table ${tables.map((t) => `"${t}"`).join(', ')} in exclusive mode`));
  const list = sql.raw(`array[${tables.map((t) => `'${t}'::regclass`).join(', ')}]`);
  const indexes = rowsOf<{ name: string; def: string }>(
    await ex.execute(sql`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i where i.indrelid = any(${list})
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by 1`),
  );
  // A primary key is an index each row's insert updates: set aside too where no foreign key stands on it.
  const uniques = rowsOf<{ table: string; name: string; def: string }>(
    await ex.execute(sql`select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def
      from pg_constraint c where c.contype in ('p', 'u') and c.conrelid = any(${list})
        and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = c.conindid)
      order by 1, 2`),
  );
  const keys = rowsOf<{ table: string; name: string; def: string }>(
    await ex.execute(sql`select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as def
      from pg_constraint where contype = 'f' and conrelid = any(${list}) order by 1, 2`),
  );
  const triggers = rowsOf<{ table: string; name: string }>(
    await ex.execute(sql`select t.tgrelid::regclass::text as table, t.tgname as name
      from pg_trigger t join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal and t.tgrelid = any(${list}) and p.proname = any(${sql.param([...triggerFunctions])}::text[])
      order by 1, 2`),
  );
  await ex.execute(sql`set local maintenance_work_mem = '128MB'`);
  for (const i of indexes) await ex.execute(sql.raw(`drop index ${i.name}`));
  for (const k of keys) await ex.execute(sql.raw(`alter table ${k.table} drop constraint "${k.name}"`));
  for (const u of uniques) await ex.execute(sql.raw(`alter table ${u.table} drop constraint "${u.name}"`));
  for (const g of triggers) await ex.execute(sql.raw(`alter table ${g.table} disable trigger "${g.name}"`));
  return async () => {
    for (const i of indexes) await ex.execute(sql.raw(i.def));
    for (const u of uniques)
      await ex.execute(sql.raw(`alter table ${u.table} add constraint "${u.name}" ${u.def}`));
    for (const k of keys)
      await ex.execute(sql.raw(`alter table ${k.table} add constraint "${k.name}" ${k.def}`));
    for (const g of triggers) await ex.execute(sql.raw(`alter table ${g.table} enable trigger "${g.name}"`));
  };
}

/**
 * Ids of a serial key handed out by the move rather than by the sequence, one call per row: for a table the bulk path
 * holds locked (loosenTables), whose sequence only its own inserts advance. `done` moves the sequence past the last id
 * given, so later inserts go on from there.
 */
export async function ownIds(ex: Executor, table: string) {
  const seq = sql`pg_get_serial_sequence(${table}, 'id')`;
  let next = Number(
    rowsOf<{ id: number }>(await ex.execute(sql`select nextval(${seq})::bigint as id`))[0].id,
  );
  return {
    take: (n: number) => {
      const ids = Array.from({ length: n }, (_, i) => next + i);
      next += n;
      return ids;
    },
    done: async () => {
      await ex.execute(sql`select setval(${seq}, ${next}::bigint, false)`);
    },
  };
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

/**
 * Writes the mapping of moved rows. `fresh`: no row of the kind is mapped (the bulk path cleared them, forget), so
 * they go in by COPY, with no conflict to look for.
 */
export async function remember(
  ex: Executor,
  tenant: number,
  kind: string,
  rows: readonly { mid: number; ourId: number; digest: string }[],
  fresh = false,
) {
  if (!rows.length) return;
  if (fresh) {
    await copyRows(
      ex,
      'maccms_ids',
      [
        ['tenant', 'int'],
        ['kind', 'text'],
        ['maccms_id', 'bigint'],
        ['our_id', 'int'],
        ['digest', 'text'],
      ],
      rows.map((r) => [tenant, kind, r.mid, r.ourId, r.digest]),
    );
    return;
  }
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

/**
 * Clears the mapping of a kind whose target table is empty: each of its rows names one that is gone (`mapped` would
 * not find it either), so the bulk path can write the new mapping without looking for conflicts.
 */
export async function forget(ex: Executor, tenant: number, kind: string) {
  await ex.execute(sql`delete from maccms_ids where tenant = ${tenant} and kind = ${kind}`);
}
