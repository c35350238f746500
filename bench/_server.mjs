// Shared by the benchmarks: build when stale, start the real server on a data dir, wait for /app/health.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'vite';
import { isStale } from '../scripts/build-state.mjs';

export function ensureBuilt() {
  if (isStale()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}

/** `checkout`: another checkout whose build to run (before/after figures); this one by default. */
export async function startServer(dataDir, port, env = {}, checkout = '.') {
  const t0 = performance.now();
  const child = spawn(process.execPath, [`${checkout}/dist/server/main.js`], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'bench-pass-1',
      DATABASE_URL: '',
      ...env,
    },
    stdio: 'ignore',
  });
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
