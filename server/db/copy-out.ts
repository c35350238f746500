import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rowsOf } from './migrate';
import { keyOf } from './stand-in';
import type { Executor } from './types';

/**
 * A driver's way of running one `COPY (…) TO STDOUT (FORMAT binary)` and handing back its data (`CopyData`, in order).
 * node-postgres has it (`openPostgres`); PGlite hands its `bytea` values over as bytes already.
 */
export type CopyOut = (text: string) => Promise<Uint8Array[]>;

const copiers = new WeakMap<object, CopyOut>();
const dialect = new PgDialect();

/** Lets `rowsWithBytes` on `db` read through COPY. */
export function copyOutWith(db: object, copy: CopyOut) {
  copiers.set(db, copy);
}

/** What a column of `rowsWithBytes` is read as: text, or the bytes of a `bytea`. */
export type ColumnKind = 'text' | 'bytea';

/**
 * The rows of a query whose answer is mostly `bytea` (a report's sketches, up to megabytes): each column as its kind
 * says (`text`: a string, whatever the column's type; `bytea`: its bytes), null as null. node-postgres takes a `bytea`
 * in as hex text, twice its size, which it then decodes: on a pool that can (`copyOutWith`), the query runs inside a
 * binary COPY instead, whose values arrive as their bytes, each column cast to its kind. Elsewhere (PGlite, a
 * transaction, a parameter a literal cannot carry) the statement runs as it is, its text columns made strings.
 */
export async function rowsWithBytes(
  db: Executor,
  query: SQL,
  columns: Record<string, ColumnKind>,
): Promise<Record<string, unknown>[]> {
  const names = Object.keys(columns);
  const copy = copiers.get(keyOf(db));
  const { sql: text, params } = dialect.sqlToQuery(query);
  const literal = copy ? inlined(text, params) : null;
  if (!copy || literal === null)
    return rowsOf<Record<string, unknown>>(await db.execute(query)).map((r) => {
      const row: Record<string, unknown> = {};
      for (const n of names)
        row[n] =
          r[n] === null || r[n] === undefined || columns[n] === 'bytea' ? (r[n] ?? null) : String(r[n]);
      return row;
    });
  const cast = names.map((n) => `${quoted(n)}::${columns[n]}`).join(', ');
  return binaryRows(
    await copy(`copy (select ${cast} from (${literal}) q) to stdout (format binary)`),
    names,
    columns,
  );
}

/** A name as an SQL identifier. */
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A statement's parameters written into its text as literals (COPY takes none): numbers as they are, text quoted
 * (quotes doubled; the server's connections set `standard_conforming_strings`, so a backslash is itself), booleans and
 * null; null when a parameter is anything else (the statement is then run as it is). The statement's text holds `$n`
 * only where its parameters go, as Drizzle writes it.
 */
export function inlined(text: string, params: unknown[]): string | null {
  let ok = true;
  const out = text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    if (v === null) return 'null';
    if (typeof v === 'boolean') return String(v);
    // in parentheses when negative: `x-$1` must not become `x--1`, a comment
    if (typeof v === 'bigint' || (typeof v === 'number' && Number.isFinite(v)))
      return v < 0 ? `(${v})` : String(v);
    if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
    ok = false;
    return '';
  });
  return ok ? out : null;
}

const utf8 = new TextDecoder();
/** The signature a binary COPY starts with, then flags and a header extension's length (32 bits each). */
const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

/** The rows of a binary COPY's data: per row a count of fields, each its length (−1: null) and bytes; −1 ends it. */
export function binaryRows(
  data: readonly Uint8Array[],
  names: readonly string[],
  columns: Record<string, ColumnKind>,
): Record<string, unknown>[] {
  const total = data.reduce((n, d) => n + d.length, 0);
  const b = new Uint8Array(total);
  let at = 0;
  for (const d of data) {
    b.set(d, at);
    at += d.length;
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const fail = (why: string): never => {
    throw new Error(`a binary COPY's data: ${why}`);
  };
  if (total < 19 || SIGNATURE.some((x, i) => b[i] !== x)) fail('no signature');
  let o = 15 + 4 + view.getInt32(15);
  const rows: Record<string, unknown>[] = [];
  for (;;) {
    if (o + 2 > total) fail('cut short');
    const fields = view.getInt16(o);
    o += 2;
    if (fields === -1) return rows;
    if (fields !== names.length) fail(`${fields} fields for ${names.length} columns`);
    const row: Record<string, unknown> = {};
    for (const name of names) {
      if (o + 4 > total) fail('cut short');
      const len = view.getInt32(o);
      o += 4;
      if (len < 0) row[name] = null;
      else {
        if (o + len > total) fail('cut short');
        const bytes = b.subarray(o, o + len);
        row[name] = columns[name] === 'bytea' ? bytes : utf8.decode(bytes);
        o += len;
      }
    }
    rows.push(row);
  }
}
