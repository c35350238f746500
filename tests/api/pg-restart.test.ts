/**
 * A PostgreSQL restart must not end the API process (issue #11). The test starts its own PostgreSQL 15 cluster on a
 * spare port (initdb/pg_ctl, run as the `postgres` user), the API on the server's own pool (`openPostgres`, as
 * `npm start` opens it) against it, runs writes, restarts and stops the cluster under them, and checks: the process lives on, the
 * outage answers 50300 (HTTP 503), never 50000, service resumes with no restart, and every acknowledged write is
 * in the database. An `error` event that escaped the pool would end a real process; here it is an uncaught
 * exception, recorded and asserted on. Skipped, visibly, where the PostgreSQL binaries are missing. Runs in the `api` project only
 * (it brings its own database, so the `api-pg` run would only repeat it).
 */
import { execFileSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { systemClock } from '../../server/core/clock';
import { memoryImageStorage } from '../../server/core/image-storage';
import { silentLogger } from '../../server/core/logger';
import { migrate } from '../../server/db/migrate';
import { ensureFirstAdmin } from '../../server/modules/operators';
import { openPostgres } from '../../server/node/postgres';
import { onPostgres } from './harness';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const initdb = join(BIN, 'initdb');
const pgCtl = join(BIN, 'pg_ctl');

function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

let dir = '';
const missing = [initdb, pgCtl].filter((f) => !existsSync(f));
const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
const why = missing.length
  ? `not found: ${missing.join(', ')}`
  : process.getuid?.() === 0 && !owner
    ? 'no postgres user to run the cluster as'
    : '';
if (why && !onPostgres) console.warn(`pg-restart: skipped (${why})`);

/**
 * Runs a PostgreSQL tool, as the postgres user when the tests run as root (PostgreSQL refuses root). Its output
 * goes to a file, not a pipe: a server started by pg_ctl would hold a pipe open and the call would never return.
 */
function asPostgres(cmd: string, args: string[]) {
  const [file, argv] = owner ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const out = openSync(join(dir, 'tools.log'), 'a');
  try {
    execFileSync(file, argv, { stdio: ['ignore', out, out] });
  } finally {
    closeSync(out);
  }
}

function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a value, with generous bounds: never a timing assertion. */
async function until<T>(what: string, check: () => Promise<T | undefined>, bound = 120_000): Promise<T> {
  const end = Date.now() + bound;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(Boolean(why) || onPostgres)('a PostgreSQL restart under load', () => {
  let pgPort = 0;
  let app: ReturnType<typeof createApp>;
  let closeDb: (() => Promise<void>) | undefined;
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);
  const exited = () => (crashes.length ? String((crashes[0] as Error)?.stack ?? crashes[0]) : undefined);
  const dataDir = () => join(dir, 'pgdata');
  const pgCtlArgs = (action: string, extra: string[] = []) => [
    action,
    '-D',
    dataDir(),
    '-w',
    '-t',
    '120',
    '-l',
    join(dir, 'postgres.log'),
    ...extra,
  ];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zhanggui-pg-restart-'));
    if (owner) chownSync(dir, owner.uid, owner.gid);
    pgPort = await sparePort();
    asPostgres(initdb, ['-D', dataDir(), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    asPostgres(pgCtl, [
      ...pgCtlArgs('start'),
      '-o',
      `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ]);
    const database = await openPostgres(`postgres://postgres@127.0.0.1:${pgPort}/postgres`);
    closeDb = database.close;
    const config = loadConfig({ ADMIN_PASSWORD: 'admin-pass-1', PASSWORD_ITERATIONS: '1000' });
    await migrate(database.db);
    await ensureFirstAdmin(database.db, config);
    app = createApp({
      db: database.db,
      config,
      clock: systemClock,
      logger: silentLogger,
      clientAddress: () => '10.0.0.1',
      images: memoryImageStorage(),
    });
    // An `error` event nobody handles is thrown out of a socket callback: the process would end. Record it.
    process.prependListener('uncaughtException', onCrash);
  }, 180_000);

  afterAll(async () => {
    process.removeListener('uncaughtException', onCrash);
    await closeDb?.().catch(() => {});
    if (dir) {
      try {
        asPostgres(pgCtl, pgCtlArgs('stop', ['-m', 'immediate']));
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'Accept-Language': 'en-US',
        ...(token ? { 'Admin-Token': token } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
  };

  it('survives pg_ctl restart -m fast and stop/start, answers 50300 meanwhile, keeps every acknowledged write', async () => {
    const login = await call('POST', '/app/admin/login', undefined, {
      username: 'admin',
      password: 'admin-pass-1',
    });
    expect(login.body.code).toBe(20000);
    const token = login.body.data.token as string;

    // 8 writers create movies (each one a transaction on a checked-out client) until told to stop.
    const acknowledged: number[] = [];
    const failures: { status: number; code: number }[] = [];
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const title = `restart-${n++}`;
        try {
          const r = await call('POST', '/app/admin/movie/movies', token, { title });
          if (r.body.code === 20000) acknowledged.push(r.body.data.id);
          else failures.push({ status: r.status, code: r.body.code });
        } catch {
          failures.push({ status: 0, code: 0 });
          if (exited()) return;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    try {
      await until('writes before the restart', async () => {
        if (failures.length > 20) throw new Error(`writes fail: ${JSON.stringify(failures.slice(0, 3))}`);
        return acknowledged.length >= 40 ? true : undefined;
      });
      asPostgres(pgCtl, pgCtlArgs('restart', ['-m', 'fast']));
      const before = acknowledged.length;
      await until('writes after the restart', async () =>
        exited() ? true : acknowledged.length >= before + 40 ? true : undefined,
      );
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    expect(exited(), 'an error escaped the pool: the API process would have died').toBeUndefined();
    // Whatever failed in the restart failed as "database unavailable", never as an unexpected error.
    for (const f of failures) expect(f).toEqual({ status: 503, code: 50300 });

    // A stopped database: every answer that needs it is 50300 with HTTP 503, in the caller's language.
    asPostgres(pgCtl, pgCtlArgs('stop', ['-m', 'fast']));
    const down = await call('POST', '/app/admin/movie/movies', token, { title: 'while down' });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 50300, msg: 'Database unavailable, please retry' });
    const read = await call('GET', '/app/admin/movie/movies?page=1&limit=5', token);
    expect(read).toMatchObject({ status: 503, body: { code: 50300 } });
    // A read whose rows come one by one (the agents' sketches, server/db/each-row.ts) fails the same way.
    const stat = await call('GET', '/app/admin/agents/stat?pageSize=20', token);
    expect(stat).toMatchObject({ status: 503, body: { code: 50300 } });
    expect(exited()).toBeUndefined();

    // Back up: the same process answers again, without a restart of its own.
    asPostgres(pgCtl, [
      ...pgCtlArgs('start'),
      '-o',
      `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ]);
    const again = await until('the API to answer again', async () => {
      const r = await call('POST', '/app/admin/movie/movies', token, { title: 'after' });
      return r.body.code === 20000 ? r : undefined;
    });
    acknowledged.push(again.body.data.id);
    expect(exited()).toBeUndefined();

    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPort}/postgres` });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number }>('select id from movies where id = any($1::int[])', [
        acknowledged,
      ]);
      expect(rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
        [...acknowledged].sort((a, b) => a - b),
      );
    } finally {
      await client.end();
    }
  }, 300_000);
});
