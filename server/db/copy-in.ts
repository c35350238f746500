import { keyOf } from './stand-in';
import type { Executor } from './types';

/**
 * A driver's way of running a simple query whose text holds one `COPY … FROM STDIN`, fed `data` (COPY's text format
 * as UTF-8, in chunks that follow one another: `CopyData`),
 * then the statements after it: one implicit transaction (a failing statement leaves nothing of the others). Resolves
 * with each statement's command tag ('COPY 500', 'INSERT 0 1'); rejects with the database's error (its `code`).
 * node-postgres has it (`openPostgres`); PGlite copies from its own virtual files only.
 */
export type CopyIn = (text: string, data: readonly Uint8Array[]) => Promise<string[]>;

const copiers = new WeakMap<object, CopyIn>();

/** Lets `copierOf(db)` load rows into `db` with COPY. */
export function copyInWith(db: object, copy: CopyIn) {
  copiers.set(db, copy);
}

/** The COPY of a database handle that has one; undefined elsewhere (PGlite, a transaction). */
export const copierOf = (db: Executor): CopyIn | undefined => copiers.get(keyOf(db));

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPED = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format: null as \N, backslash, tab and line ends escaped. */
export function copyField(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return COPY_SPECIAL.test(v) ? v.replace(COPY_ESCAPED, (ch) => COPY_ESCAPES[ch]) : v;
}

const utf8 = new TextEncoder();

/** A chunk of `CopyData`: a buffer of this size is taken from the memory in use (below, a larger one is not). */
const CHUNK = 64 * 1024;

/**
 * COPY's data built a line at a time straight into UTF-8 bytes, in chunks of `chunk` bytes (a line longer than that
 * in a chunk of its own), each line whole in one chunk. A batch's lines joined into one text, then encoded, cost
 * three times as much: a text over 128 KB is a large object of the JavaScript heap (fresh pages for each, each page
 * faulted in), and one character past U+00FF (a region's Chinese name) makes the
 * whole text two bytes a character, copied again when it is flattened. One buffer for a batch's lines (160 KB) was
 * fresh memory too, as was joining a COPY's batches (about 1 MB), where buffers of 64 KB come from
 * memory the allocator already has in use. The driver sends the chunks one after another.
 */
export class CopyData {
  private readonly full: Uint8Array[] = [];
  private bytes: Uint8Array;
  private size = 0;
  constructor(private readonly chunk = CHUNK) {
    this.bytes = new Uint8Array(chunk);
  }
  add(line: string) {
    const most = line.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.size + most > this.bytes.length) {
      if (this.size > 0) this.full.push(this.bytes.subarray(0, this.size));
      this.bytes = new Uint8Array(Math.max(this.chunk, most));
      this.size = 0;
    }
    this.size += utf8.encodeInto(line, this.bytes.subarray(this.size)).written;
  }
  /** The lines added, as chunks of bytes (views of the builder's: add no more while they are in use). */
  get data(): Uint8Array[] {
    return this.size > 0 ? [...this.full, this.bytes.subarray(0, this.size)] : [...this.full];
  }
}
