import { createHash, hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { createApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { manualClock } from '../../server/core/clock';
import { memoryImageStorage } from '../../server/core/image-storage';
import { type Logger, silentLogger } from '../../server/core/logger';
import type { ServerModule } from '../../server/core/module';
import type { OutboundFetch } from '../../server/core/outbound';
import { migrate, migrations, rowsOf } from '../../server/db/migrate';
import { PGLITE_TYPES } from '../../server/db/pglite';
import { schema } from '../../server/db/schema';
import type { Database } from '../../server/db/types';
import { ensureFirstAdmin } from '../../server/modules/operators';
import { sharedBuffersMb } from '../../server/node/data-dir';
import { openPostgres } from '../../server/node/postgres';

export const ADMIN_PASSWORD = 'admin-pass-1';
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const onPostgres = process.env.TEST_DB === 'postgres';

// A statement sent on a connection that is still running one (statements of one transaction started at once, with
// Promise.all) only queues there, and pg 9 will refuse it: on PostgreSQL, the suite refuses it now, naming both.
const guarded = Symbol.for('zg.concurrentQueryGuard');
const clientProto = pg.Client.prototype as unknown as Record<PropertyKey, unknown> & {
  query: (...args: unknown[]) => unknown;
};
if (onPostgres && !clientProto[guarded]) {
  clientProto[guarded] = true;
  const query = clientProto.query;
  // pg 8's own fields (its public `activeQuery` and `queryQueue` getters warn that they are deprecated).
  clientProto.query = function (
    this: { _activeQuery?: { text?: string } | null; _queryQueue?: unknown[] },
    ...args
  ) {
    const busy = this._activeQuery ?? (this._queryQueue?.length ? {} : null);
    if (busy) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      throw new Error(
        `a statement sent while its connection runs another (Promise.all in a transaction?): ${String(text).slice(0, 200)} — running: ${String(busy.text).slice(0, 200)}`,
      );
    }
    return query.apply(this, args);
  };
}

/**
 * A fresh database for one test file: PGlite in memory, or a new database on the PostgreSQL of TEST_DATABASE_URL
 * (then `url` says where, so a test can open more connections to it).
 */
export async function freshDatabase(
  options: { migrated?: boolean } = {},
): Promise<Database & { url?: string }> {
  if (process.env.TEST_DB !== 'postgres') return pgliteFromDump(options.migrated ?? false);
  const name = `zg_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    if (options.migrated) await copyOfMigratedTemplate(admin, name);
    else await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A fresh database as an older release left it: every migration before `first` applied and recorded, as `migrate`
 * applies them (in one transaction: some lock their tables). A migration's test fills it, then runs `migrate`.
 */
export async function databaseBefore(first: string): Promise<Database & { url?: string }> {
  const database = await freshDatabase();
  await database.db.transaction(async (tx) => {
    await tx.execute(
      sql`create table _migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    for (const m of migrations.filter((x) => x.name < first)) {
      for (const statement of m.text.split('--> statement-breakpoint'))
        if (statement.trim()) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into _migrations (name) values (${m.name})`);
    }
  });
  return database;
}

/** A key of the migrations' text: a new or edited migration makes a new migrated snapshot. */
function migrationsKey(): string {
  return createHash('sha256')
    .update(migrations.map((m) => `${m.name}\n${m.text}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Running every migration costs seconds per test file on PostgreSQL; `CREATE DATABASE … TEMPLATE` of a database
 * migrated once costs a fraction of one. The template is named by the migrations' key (so worktrees with other
 * migrations on the same server each get theirs) and built under an advisory lock, under a temporary name renamed
 * when complete: a parallel worker waits for it, and an interrupted build never passes for a template.
 */
async function copyOfMigratedTemplate(admin: pg.Client, name: string) {
  const template = `zg_template_${migrationsKey()}`;
  await admin.query('select pg_advisory_lock(7270611)');
  try {
    const { rows } = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (!rows.length) {
      const building = `${template}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${building}`;
      const database = await openPostgres(url.toString(), 1);
      try {
        await migrate(database.db);
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${building} rename to ${template}`);
    }
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.query('select pg_advisory_unlock(7270611)');
  }
}

/**
 * PGlite's initdb costs seconds per test file; loading a dump of an already migrated database costs well under one.
 * The dump is kept in the temp directory, keyed by the migrations' text, so a new migration makes a new one; it is
 * taken after a checkpoint, so a load replays no WAL. A file that wants a database with no migrations (to run them
 * itself) loads a dump of one just made by initdb, kept the same way and keyed by PGlite's version: an initdb took
 * 4-7 s of each such file, four of them in the suite.
 *
 * Each load still cost 1.5–2.5 s of CPU, in three places (measured 2026-11-29, a 44 MB dump): Node 20's
 * `Blob.arrayBuffer()`, which PGlite reads the dump with, copies it in small chunks (0.4–0.6 s: the worker now reads
 * the file once and hands PGlite that buffer, which it only reads); PostgreSQL clearing its 128 MB of shared buffers
 * as it starts (0.3–0.4 s: the tests' databases get those the server gives a small embedded database, the floor of
 * `sharedBuffersMb`, 32 MB; the dump's database holds 11 MB); and untarring what it holds (below). A load now costs
 * 0.5–0.6 s of CPU, and the PGlite API suite took 356 s of CPU instead of 542 (438 s instead of 727 wall).
 */
const dumps = new Map<string, Promise<ArrayBuffer>>();

const PGLITE_VERSION: string = JSON.parse(
  readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '../package.json'),
    'utf8',
  ),
).version;

/** A Blob that hands PGlite the dump's bytes as they are (Node 20's own `arrayBuffer()` copies them slowly). */
class DumpBlob extends Blob {
  constructor(private readonly dump: ArrayBuffer) {
    super([]);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.dump);
  }
}

async function pgliteFromDump(migrated: boolean): Promise<Database> {
  // `-2`: the dump without templates (an older one, with them, may still be in the temp directory).
  const key = migrated ? migrationsKey() : `initdb-${PGLITE_VERSION}`;
  const file = join(tmpdir(), `zhanggui-test-pglite-${key}-2.tar`);
  const options = {
    ...PGLITE_TYPES,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb(0)}MB`],
  };
  let client: PGlite | undefined;
  try {
    let bytes = dumps.get(file);
    if (!bytes) {
      bytes = readFile(file).then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
      dumps.set(file, bytes);
    }
    client = await PGlite.create({ loadDataDir: new DumpBlob(await bytes), ...options });
  } catch {
    dumps.delete(file);
    client = undefined;
  }
  if (!client) {
    // As demo mode's snapshot (mocks/snapshot-build.ts): 1 MB WAL segments, not 16, and no template databases (no
    // test creates a database on PGlite): a 20 MB dump, not 44, and 0.1 s less to load.
    client = await PGlite.create({ ...options, initDbStartParams: ['--wal-segsize=1'] });
    if (migrated) await migrate(drizzle(client, { schema }) as unknown as Database['db']);
    await client.exec(
      "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
    );
    await client.exec('drop database template1');
    await client.exec('drop database template0');
    await client.exec('checkpoint');
    const dump = await client.dumpDataDir('none');
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(tmp, new Uint8Array(await dump.arrayBuffer()));
    await rename(tmp, file); // atomic: a parallel worker reads a whole dump or none
  }
  const c = client;
  return {
    db: drizzle(c, { schema }) as unknown as Database['db'],
    driver: 'pglite',
    close: () => c.close(),
  };
}

export interface TestApi {
  app: ReturnType<typeof createApp>;
  database: Database;
  config: Config;
  clock: ReturnType<typeof manualClock>;
  /** The app's image store (in memory): to look at what an upload stored. */
  images: ReturnType<typeof memoryImageStorage>;
  /** Sets the address the throttle sees for the next requests. */
  setAddress(a: string): void;
  /** Sends a request and returns the parsed envelope with the HTTP status. */
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
  login(username?: string, password?: string): Promise<string>;
  /** Runs raw SQL on the test database and returns its rows (to look behind the API: hashes, counters). */
  query<T = Record<string, unknown>>(q: SQL): Promise<T[]>;
  /** Creates an operator through the API with an admin token and returns its id. */
  createOperator(
    adminToken: string,
    op: { account: string; password?: string; role?: string; nickname?: string },
  ): Promise<number>;
  close(): Promise<void>;
}

export const USER_PASSWORD = 'user-pass-1';

/** The API in-process on a migrated, bootstrapped database, with a manual clock and a cheap password hash. */
export async function startApi(
  env: Record<string, string> = {},
  options: {
    logger?: Logger;
    modules?: readonly ServerModule[];
    /** The handle the app is given instead of the database's own (e.g. `watchedDb`'s, to see its statements). */
    wrapDb?: (db: Database['db']) => Database['db'];
    /** The outbound guard the app fetches through (collection); none by default, as in demo mode. */
    outbound?: OutboundFetch;
  } = {},
): Promise<TestApi> {
  const database = await freshDatabase({ migrated: true });
  const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', ...env });
  await migrate(database.db);
  await ensureFirstAdmin(database.db, config);
  const clock = manualClock(new Date('2026-06-01T08:00:00Z'));
  let address = '10.0.0.1';
  const images = memoryImageStorage();
  const app = createApp(
    {
      db: options.wrapDb ? options.wrapDb(database.db) : database.db,
      config,
      clock,
      logger: options.logger ?? silentLogger,
      clientAddress: () => address,
      images,
      md5: (text) => hash('md5', text), // as the Node server (stats-hash.test.ts holds it to SQL's hashing)
      outbound: options.outbound,
    },
    options.modules,
  );
  const call: TestApi['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers['Admin-Token'] = opts.token;
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed };
  };
  return {
    app,
    database,
    config,
    clock,
    images,
    setAddress: (a) => {
      address = a;
    },
    call,
    async login(username = 'admin', password = ADMIN_PASSWORD) {
      const r = await call('POST', '/app/admin/login', { body: { username, password } });
      if (r.body.code !== 20000) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
      return r.body.data.token as string;
    },
    async query<T>(q: SQL) {
      return rowsOf<T>(await database.db.execute(q));
    },
    async createOperator(adminToken, op) {
      const r = await call('POST', '/app/admin/operators', {
        token: adminToken,
        body: { password: USER_PASSWORD, role: 'user', ...op },
      });
      if (r.body.code !== 20000) throw new Error(`create operator failed: ${JSON.stringify(r.body)}`);
      return r.body.data.id as number;
    },
    close: () => database.close(),
  };
}
