import type { Executor } from './types';

/**
 * A driver's way of running a simple query whose text holds one `COPY … FROM STDIN`, fed `data` (COPY's text format),
 * then the statements after it: one implicit transaction (a failing statement leaves nothing of the others). Resolves
 * with each statement's command tag ('COPY 500', 'INSERT 0 1'); rejects with the database's error (its `code`).
 * node-postgres has it (`openPostgres`); PGlite copies from its own virtual files only.
 */
export type CopyIn = (text: string, data: string) => Promise<string[]>;

const copiers = new WeakMap<object, CopyIn>();

/** Lets `copierOf(db)` load rows into `db` with COPY. */
export function copyInWith(db: object, copy: CopyIn) {
  copiers.set(db, copy);
}

/** The COPY of a database handle that has one; undefined elsewhere (PGlite, a transaction). */
export const copierOf = (db: Executor): CopyIn | undefined => copiers.get(db);

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPED = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format: null as \N, backslash, tab and line ends escaped. */
export function copyField(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return COPY_SPECIAL.test(v) ? v.replace(COPY_ESCAPED, (ch) => COPY_ESCAPES[ch]) : v;
}
