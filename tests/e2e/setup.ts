import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './ports';

export const E2E_ADMIN_PASSWORD = 'e2e-admin-pass1';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

let server: ChildProcess | undefined;
let dataDir = '';

/**
 * Starts `dist/server/main.js` (built by `npm test` before this suite) on a copy of a migrated data dir (below) and a
 * free port; again on
 * another port if it exits before answering (a port taken between the probe and the server's listen).
 */
export async function setup(project: TestProject) {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await start(project);
    } catch (err) {
      lastError = err;
      if (!(err instanceof ServerExited)) throw err;
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }
  throw lastError;
}

class ServerExited extends Error {}

async function start(project: TestProject) {
  const template = await migratedDataDir();
  dataDir = mkdtempSync(join(tmpdir(), 'zhanggui-e2e-'));
  cpSync(template, dataDir, { recursive: true });
  const { baseURL } = await launch(dataDir);
  project.provide('baseURL', baseURL);
}

/** Starts the built server on `dir` and a free port and waits until it answers (`server` is the child). */
async function launch(dir: string) {
  const port = await freePort();
  server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // Wait for a state, not a clock: the server answers /app/health, or it exits. Its first start creates the
  // database (initdb, migrations, the admin's password hash): 5-10 s alone, and a 30 s deadline failed the whole
  // suite when the other lane of `npm test` and other jobs shared the cores. The guard only catches a hung start.
  const hung = Date.now() + 300_000;
  for (;;) {
    if (server.exitCode !== null) throw new ServerExited(`the server exited with ${server.exitCode}`);
    const ok = await fetch(`${baseURL}/app/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > hung) throw new Error('the server neither answered /app/health nor exited in 5 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseURL };
}

/**
 * A data directory as the built server's first start leaves it (initdb, every migration, the admin), made once per
 * build and copied for each run: that first start cost 17 s of CPU (3.7 s for a start on a made one), in each of
 * the five parts `npm test` runs the suite in. Keyed by the built server's files; made under a name of its own and
 * renamed when the server has stopped, so a run never copies half of one (two parts making it at once: one keeps
 * its own). A start of the suite's own (start.test.ts) still makes its database afresh. A journey that needs a second
 * server of ours (collect.test.ts) starts it on a copy of the same one.
 */
export async function migratedDataDir(): Promise<string> {
  const key = createHash('sha256');
  for (const name of readdirSync('dist/server', { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join('dist/server', name);
    if (name.endsWith('.js')) key.update(name).update('\0').update(readFileSync(path)).update('\0');
  }
  // The database's own code too: PGlite is not bundled into the build.
  key.update(readFileSync('node_modules/@electric-sql/pglite/package.json')).update(E2E_ADMIN_PASSWORD);
  const root = resolve('node_modules/.cache/e2e-data');
  const dir = join(root, key.digest('hex').slice(0, 16));
  if (existsSync(join(dir, 'PG_VERSION'))) return dir;
  mkdirSync(root, { recursive: true });
  const building = `${dir}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  try {
    await launch(building);
    await stopServer();
    try {
      renameSync(building, dir);
    } catch {
      if (!existsSync(join(dir, 'PG_VERSION')))
        throw new Error(`could not keep the made data directory ${dir}`);
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  // Those of older builds.
  for (const name of readdirSync(root))
    if (/^[0-9a-f]{16}$/.test(name) && join(root, name) !== dir)
      rmSync(join(root, name), { recursive: true, force: true });
  return dir;
}

/** Stops the server and waits for its exit (it closes its database first). */
async function stopServer() {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function teardown() {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
