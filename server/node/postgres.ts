import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Logger } from '../core/logger';
import { type CopyIn, copyInWith } from '../db/copy-in';
import { type CopyOut, copyOutWith } from '../db/copy-out';
import { schema } from '../db/schema';
import type { Database } from '../db/types';

/** The server's connections per process (`npm start`; the benches open the same). */
export const POOL_SIZE = 10;

/**
 * A real PostgreSQL through `DATABASE_URL`: a pool, so several requests run at once.
 *
 * A PostgreSQL restart must not end the process. node-postgres reports a dead connection as an `error` event on
 * the client, and an `error` event nobody listens to throws: the pool listens on its idle clients, and every
 * client gets its own listener the moment it is created, so a client checked out by a transaction is covered
 * too. The queries in flight fail (the app answers 50300); a broken client is not reused (pg-pool drops it), and
 * the next request opens a fresh connection, so the service resumes as soon as PostgreSQL is back. A client whose
 * connection dies while it is checked out goes back to the pool at once (`ResilientPool`): no slot is lost.
 */
export async function openPostgres(url: string, max = POOL_SIZE, logger?: Logger): Promise<Database> {
  const pool = new ResilientPool({
    connectionString: url,
    max,
    // While PostgreSQL is down a request fails fast rather than queueing for a connection forever.
    connectionTimeoutMillis: 10_000,
    // Idle connections stay open (pg closes them after 10 s by default). A report's reads go out at once on several
    // connections, and on a new one each first pays the backend's start and its lookups of the tables it reads: with
    // every connection new, a 90-day domains report read first took half as long again (docs/statistics.md).
    idleTimeoutMillis: 0,
    // Run on each new connection before it is handed out (a statement queued behind another is refused by pg 9).
    onConnect: async (client: pg.ClientBase) => {
      await client.query(SESSION_SETTINGS);
    },
  });
  const report = (err: Error) =>
    logger?.warn(
      { err: { message: err.message, code: (err as { code?: string }).code } },
      'database connection lost',
    );
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  const client = await pool.connect(); // fail at start, with a clear line, when the server is unreachable
  client.release();
  return { db: databaseOver(pool), driver: 'postgres', close: () => pool.end() };
}

/**
 * What every connection of the server sets first. Just-in-time compilation off: PostgreSQL compiles a statement whose
 * estimated cost passes `jit_above_cost` (on by default where LLVM is installed, as in Debian's packages), and the
 * rollup's and reports' statements pass it while running in milliseconds to seconds: the rollup's objects statement
 * spent most of its time compiling (inlining and optimisation) rather than running, on every run. A SET
 * rather than a startup option, which connection poolers such as PgBouncer refuse. Standard strings (a backslash is
 * itself in '…', PostgreSQL's default) whatever the server's configuration: a binary COPY's statement carries its
 * parameters as literals (copy-out.ts `inlined`).
 */
export const SESSION_SETTINGS = 'set jit = off; set standard_conforming_strings = on';

/** The Drizzle handle over a pool as the server uses it (benches reuse it on their own pools). */
export function databaseOver(pool: pg.Pool): Database['db'] {
  const db = drizzle(pool, { schema }) as unknown as Database['db'];
  copyInWith(db, copyIn(pool));
  copyOutWith(db, copyOut(pool));
  return db;
}

/**
 * `COPY … FROM STDIN` on a client of the pool (copy-in.ts): node-postgres runs a query object that answers the
 * protocol's messages itself (`submit` and the `handle…` calls), as pg-copy-streams does. This one sends `data`'s
 * chunks as one CopyData message right behind the query, without waiting for the server's CopyInResponse: the server reads
 * it once it is in copy mode, and drops it unread when the COPY fails before (the protocol's rule for CopyData and
 * CopyDone outside copy mode). So the rows are on their way when `copy` returns to the event loop, however long what
 * runs next keeps it, and no round trip waits between the statement and its rows.
 */
function copyIn(pool: pg.Pool): CopyIn {
  return (text, data) => onClient(pool, (client) => copyInOn(client, text, data));
}

/** `run` on a client checked out of the pool, given back however it ends. */
async function onClient<T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await run(client);
  } finally {
    client.release();
  }
}

/**
 * `COPY … FROM STDIN` on a client already checked out, inside whatever transaction it is in (the MacCMS move's bulk
 * path copies within its one transaction): as `copyIn`, on that client.
 */
export function copyInOn(
  client: pg.ClientBase,
  text: string,
  data: readonly Uint8Array[],
): Promise<string[]> {
  return new CopyInQuery(
    text,
    data.map((d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength)),
  ).runOn(client);
}

/** The part of node-postgres' connection a query object writes with. */
interface Wire {
  query(text: string): void;
  stream: { writable: boolean; write(b: Uint8Array): boolean };
  endCopyFrom(): void;
}

/**
 * A query object node-postgres runs as it is (`submit`, then a `handle…` call per message of the answer), for what its
 * own queries do not do (COPY's data either way). Its callback runs once, with what `result` holds by then.
 */
abstract class WireQuery<T> {
  private callback?: (err: Error | undefined, result: T) => void;
  constructor(readonly text: string) {}
  protected abstract readonly result: T;
  /** Runs on `client`: resolves with `result` when the answer ends, rejects with the database's error. */
  runOn(client: pg.ClientBase): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.callback = (err, result) => (err ? reject(err) : resolve(result));
      client.query(this);
    });
  }
  protected done(err?: Error) {
    const callback = this.callback;
    this.callback = undefined; // once: an error is followed by ReadyForQuery, which node-postgres no longer hands here
    callback?.(err, this.result);
  }
  submit(connection: Wire) {
    connection.query(this.text);
  }
  handleError(err: Error) {
    this.done(err);
  }
  handleReadyForQuery() {
    this.done();
  }
  handleCommandComplete(_msg: { text: string }) {}
  handleCopyInResponse() {}
  handleCopyData(_msg: { chunk: Buffer }) {}
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
}

class CopyInQuery extends WireQuery<string[]> {
  protected readonly result: string[] = [];
  constructor(
    text: string,
    private readonly data: readonly Buffer[],
  ) {
    super(text);
  }
  submit(connection: Wire) {
    connection.query(this.text);
    if (!connection.stream.writable) return; // the connection is ending: its error reaches the query
    // One CopyData: its header ('d', then the length of the message with itself), then the rows' chunks as they are
    // (not copied into the driver's buffer first, nor joined).
    let size = 0;
    for (const chunk of this.data) size += chunk.length;
    const header = Buffer.allocUnsafe(5);
    header[0] = 0x64;
    header.writeInt32BE(size + 4, 1);
    connection.stream.write(header);
    for (const chunk of this.data) connection.stream.write(chunk);
    connection.endCopyFrom();
  }
  handleCommandComplete(msg: { text: string }) {
    this.result.push(msg.text);
  }
}

/** `COPY … TO STDOUT` on a client of the pool (copy-out.ts): each message handed over as it arrives. */
function copyOut(pool: pg.Pool): CopyOut {
  return (text, onData) => onClient(pool, (client) => new CopyOutQuery(text, onData).runOn(client));
}

class CopyOutQuery extends WireQuery<void> {
  protected readonly result = undefined;
  /** A throw from `onData`, kept until the query ends (it must not reach the connection's parser). */
  private thrown: { err: unknown } | null = null;
  constructor(
    text: string,
    private readonly onData: (data: Uint8Array) => void,
  ) {
    super(text);
  }
  // The driver's parser reads the next messages into the same buffer: `onData` reads a message before it returns.
  handleCopyData(msg: { chunk: Buffer }) {
    if (this.thrown) return;
    try {
      this.onData(msg.chunk);
    } catch (err) {
      this.thrown = { err };
    }
  }
  override handleReadyForQuery() {
    this.done(this.thrown ? (this.thrown.err as Error) : undefined);
  }
}

type Release = (err?: Error | boolean) => void;

/**
 * pg's pool, where a checked-out client whose connection fails or ends is handed back at once (the pool drops it)
 * and a second release does nothing. Drizzle's transaction checks a client out and sends BEGIN before its
 * try/finally: when BEGIN fails (PostgreSQL restarting) it never releases the client, and each such client was a
 * pool slot lost for good, until the pool had none and every request waited for a connection that never came.
 */
export class ResilientPool extends pg.Pool {
  // pg's overloads: a promise (Drizzle's transactions), or a callback (pg-pool's own query)
  override connect(...args: any[]): any {
    if (args.length) return (super.connect as (...a: unknown[]) => unknown)(...args);
    return super.connect().then((client) => {
      const release: Release = client.release;
      let released = false;
      const once: Release = (err) => {
        if (released) return;
        released = true;
        client.removeListener('error', lost);
        client.removeListener('end', ended);
        release(err);
      };
      const lost = (err: Error) => once(err);
      const ended = () => once(new Error('Connection terminated'));
      client.on('error', lost);
      client.on('end', ended);
      client.release = once;
      return client;
    });
  }
}
