import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * Starts `dist/server/main.js` (built by `npm test` before this suite) on a fresh data dir and a free port; again on
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
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  throw lastError;
}

class ServerExited extends Error {}

async function start(project: TestProject) {
  dataDir = mkdtempSync(join(tmpdir(), 'zhanggui-e2e-'));
  const port = await freePort();
  server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
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
  project.provide('baseURL', baseURL);
}

export async function teardown() {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dataDir, { recursive: true, force: true });
}
