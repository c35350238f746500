import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rowsOf } from './migrate';
import { keyOf } from './stand-in';
import type { Executor } from './types';

/** A driver's way of handing a query's rows over one at a time as they arrive (node-postgres: `openPostgres`). */
export type RowStream = (
  query: { sql: string; params: unknown[] },
  onRow: (row: Record<string, unknown>) => void,
) => Promise<void>;

const streams = new WeakMap<object, RowStream>();
const dialect = new PgDialect();

/** Lets `eachRow` on `db` read rows as they arrive. */
export function streamRowsWith(db: object, stream: RowStream) {
  streams.set(db, stream);
}

/**
 * Calls `onRow` for every row of a query, in order. On a database handle whose driver can (node-postgres, the
 * server's pool), each row is handed over as it arrives and is garbage once `onRow` returns: an answer of thousands of
 * large values (the agents' sketches, megabytes of text) read whole stays alive through the young generation's
 * collections until its last row, and copying it there cost up to a fifth of such a read. Elsewhere (PGlite, a
 * transaction) the rows are read whole, then handed over.
 */
export async function eachRow(db: Executor, query: SQL, onRow: (row: Record<string, unknown>) => void) {
  const stream = streams.get(keyOf(db));
  if (stream) return stream(dialect.sqlToQuery(query), onRow);
  for (const row of rowsOf<Record<string, unknown>>(await db.execute(query))) onRow(row);
}
