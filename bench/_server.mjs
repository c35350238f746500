// Shared by the benchmarks: build when stale, start the real server on a data dir, wait for /app/health.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'vite';
import { isStale } from '../scripts/build-state.mjs';
import { SERVER_NODE_ARGS } from '../scripts/server-args.mjs';

export function ensureBuilt() {
  if (isStale()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}

/**
 * `checkout`: another checkout whose build to run (before/after figures); this one by default. The server runs with
 * Node's options as `npm start` gives them (SERVER_NODE_ARGS), then `BENCH_SERVER_ARGS`: more of them
 * (`--cpu-prof --cpu-prof-dir=…` to profile it).
 */
export async function startServer(dataDir, port, env = {}, checkout = '.') {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
      `${checkout}/dist/server/main.js`,
    ],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD: 'bench-pass-1',
        DATABASE_URL: '',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'], // a crash says why
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/app/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { child, url, ms: performance.now() - t0 };
}

export function stop(child) {
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/**
 * Loads the server's TypeScript modules in process (its migrator bundles the SQL files with import.meta.glob, so
 * Vite loads it): `load('/server/app.ts')`; `close()` when done.
 */
export async function serverModules() {
  const vite = await createServer({
    configFile: false,
    root: process.cwd(),
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  return { load: (path) => vite.ssrLoadModule(path), close: () => vite.close() };
}

/**
 * The API in process on `db` (modules loaded through `load` of `serverModules`), the admin logged in with
 * `password`: `call(path)` answers the data of a GET's envelope and throws on any code but 20000.
 */
export async function inProcessApi(load, { db, config, password }) {
  const { createApp } = await load('/server/app.ts');
  const { systemClock } = await load('/server/core/clock.ts');
  const { silentLogger } = await load('/server/core/logger.ts');
  const { memoryImageStorage } = await load('/server/core/image-storage.ts');
  const app = createApp({
    db,
    config,
    clock: systemClock,
    logger: silentLogger,
    clientAddress: () => '127.0.0.1',
    images: memoryImageStorage(),
  });
  const login = await app.request('/app/admin/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const token = (await login.json()).data.token;
  const call = async (path) => {
    const res = await app.request(path, { headers: { 'Admin-Token': token } });
    const body = await res.json();
    if (body.code !== 20000) throw new Error(`${path}: ${JSON.stringify(body)}`);
    return body.data;
  };
  return { app, token, call };
}

/**
 * Follows the requests `page` sends from now on (`only`: those whose URL it accepts), each with its start and end in
 * ms after `t0`; the returned function stops following and gives them (end undefined: not answered yet).
 */
export function watchRequests(page, t0, only = () => true) {
  const requests = [];
  const onRequest = (r) => {
    if (only(r.url())) requests.push({ r, url: r.url(), start: performance.now() - t0, end: undefined });
  };
  const onDone = (r) => {
    const entry = requests.find((q) => q.r === r);
    if (entry) entry.end = performance.now() - t0;
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  return () => {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
    return requests;
  };
}
