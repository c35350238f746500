import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';

/**
 * The declarations' shape as the driver sees it: queries import their tables from the modules, never through
 * `db.query`, so the handle need not know them one by one.
 */
type Schema = Record<string, unknown>;

/** Both drivers (PGlite and node-postgres) give this: the modules never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Something queries can run on: the database or a transaction. */
export type Executor = Db | Tx;

/** An opened database: the Drizzle handle and how to close it. */
export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}
