import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rowsOf } from './migrate';
import { keyOf } from './stand-in';
import type { Executor } from './types';

/**
 * A driver's way of running one `COPY (…) TO STDOUT (FORMAT binary)`, handing each `CopyData` message to `onData` in
 * order as it arrives (its bytes are the driver's, valid only during the call). node-postgres has it
 * (`openPostgres`); PGlite hands its `bytea` values over as bytes already.
 */
export type CopyOut = (text: string, onData: (data: Uint8Array) => void) => Promise<void>;

const copiers = new WeakMap<object, CopyOut>();
const dialect = new PgDialect();

/** Lets `rowsWithBytes` on `db` read through COPY. */
export function copyOutWith(db: object, copy: CopyOut) {
  copiers.set(db, copy);
}

/** What a column of `rowsWithBytes` is read as: text, or the bytes of a `bytea`. */
export type ColumnKind = 'text' | 'bytea';

/**
 * The rows of a query whose answer is mostly `bytea` (a report's sketches, up to megabytes), handed to `onRow` one by
 * one, each column as its kind says (`text`: a string, whatever the column's type; `bytea`: its bytes, valid only
 * during the call: a value kept is copied), null as null. node-postgres takes a `bytea` in as hex text, twice its size,
 * which it then decodes: on a pool that can (`copyOutWith`), the query runs inside a binary COPY instead, whose values
 * arrive as their bytes, each column cast to its kind, and each row is read where it arrived (nothing of a read of
 * megabytes is held but what `onRow` keeps). Elsewhere (PGlite, a transaction, a parameter a literal cannot carry)
 * the statement runs as it is, its text columns made strings.
 */
export async function eachRowWithBytes(
  db: Executor,
  query: SQL,
  columns: Record<string, ColumnKind>,
  onRow: (row: Record<string, unknown>) => void,
): Promise<void> {
  const names = Object.keys(columns);
  const copy = copiers.get(keyOf(db));
  const { sql: text, params } = dialect.sqlToQuery(query);
  const literal = copy ? inlined(text, params) : null;
  if (!copy || literal === null) {
    for (const r of rowsOf<Record<string, unknown>>(await db.execute(query))) {
      const row: Record<string, unknown> = {};
      for (const n of names) {
        const v = r[n];
        // bytes as a plain view, as the COPY gives them (a Buffer's `slice` would not copy them)
        row[n] =
          v === null || v === undefined
            ? null
            : columns[n] === 'bytea'
              ? v instanceof Uint8Array
                ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
                : v
              : String(v);
      }
      onRow(row);
    }
    return;
  }
  const cast = names.map((n) => `${quoted(n)}::${columns[n]}`).join(', ');
  const reader = new BinaryRows(names, columns, onRow);
  await copy(`copy (select ${cast} from (${literal}) q) to stdout (format binary)`, (data) =>
    reader.push(data),
  );
  reader.end();
}

/** `eachRowWithBytes`' rows, all of them, their bytes copied. */
export async function rowsWithBytes(
  db: Executor,
  query: SQL,
  columns: Record<string, ColumnKind>,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  await eachRowWithBytes(db, query, columns, (row) => rows.push(kept(row)));
  return rows;
}

/** A row of `eachRowWithBytes` with copies of its bytes, to keep. */
function kept(row: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(row)) if (v instanceof Uint8Array) row[k] = v.slice();
  return row;
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

/** The rows of a binary COPY's data (its messages in order), their bytes copied: all of it read, or an error. */
export function binaryRows(
  data: readonly Uint8Array[],
  names: readonly string[],
  columns: Record<string, ColumnKind>,
): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const reader = new BinaryRows(names, columns, (row) => rows.push(kept(row)));
  for (const d of data) reader.push(d);
  reader.end();
  return rows;
}

const fail = (why: string): never => {
  throw new Error(`a binary COPY's data: ${why}`);
};

/**
 * Reads a binary COPY's data as it arrives (`push`, then `end`): the signature, then per row a count of fields, each
 * its length (−1: null) and bytes; −1 ends it. A row within one message is read where it lies (PostgreSQL sends a row a
 * message); the bytes of a row cut across messages are kept until it is whole.
 */
class BinaryRows {
  private pending: Uint8Array | null = null;
  private started = false;
  private done = false;
  constructor(
    private readonly names: readonly string[],
    private readonly columns: Record<string, ColumnKind>,
    private readonly onRow: (row: Record<string, unknown>) => void,
  ) {}

  push(data: Uint8Array) {
    if (this.done) {
      if (data.length) fail('data after its end');
      return;
    }
    // A plain view of the driver's bytes (a Buffer's `slice` is a view, not the copy a kept value must be).
    let b = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (this.pending) {
      b = new Uint8Array(this.pending.length + data.length);
      b.set(this.pending);
      b.set(data, this.pending.length);
      this.pending = null;
    }
    const at = this.read(b);
    if (at < b.length && !this.done) this.pending = b.slice(at);
    else if (at < b.length) fail('data after its end');
  }

  end() {
    if (!this.done) fail(this.started ? 'cut short' : 'no signature');
  }

  /** Reads the whole rows at the start of `b`; returns where the first incomplete one starts. */
  private read(b: Uint8Array): number {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let o = 0;
    if (!this.started) {
      if (SIGNATURE.some((x, i) => i < b.length && b[i] !== x)) fail('no signature');
      if (b.length < 19) return 0;
      const ext = view.getInt32(15);
      if (ext < 0) fail('a negative length');
      if (b.length < 19 + ext) return 0;
      o = 19 + ext;
      this.started = true;
    }
    for (;;) {
      const start = o;
      if (o + 2 > b.length) return start;
      const fields = view.getInt16(o);
      o += 2;
      if (fields === -1) {
        this.done = true;
        return o;
      }
      if (fields !== this.names.length) fail(`${fields} fields for ${this.names.length} columns`);
      const row: Record<string, unknown> = {};
      for (const name of this.names) {
        if (o + 4 > b.length) return start;
        const len = view.getInt32(o);
        o += 4;
        if (len < 0) row[name] = null;
        else {
          if (o + len > b.length) return start;
          const bytes = b.subarray(o, o + len);
          row[name] = this.columns[name] === 'bytea' ? bytes : utf8.decode(bytes);
          o += len;
        }
      }
      this.onRow(row);
    }
  }
}
