import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CREATING } from '../../server/node/data-dir';
import { freePort } from './ports';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Output = { code: number | null; stdout: string; stderr: string };

/** Runs a built script to its exit and returns its output; `watch` sees the output so far (to stop it). */
function runScript(
  script: string,
  env: Record<string, string>,
  watch?: (stdout: string, child: ChildProcess) => void,
): Promise<Output> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, DATABASE_URL: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      watch?.(stdout, child);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the built server until it serves (then stops it) or exits; returns its output. */
const run = (env: Record<string, string>) =>
  runScript('dist/server/main.js', { LOG_LEVEL: 'info', ADMIN_PASSWORD: '', ...env }, (stdout, child) => {
    if (stdout.includes('Zhanggui is serving')) child.kill('SIGTERM');
  });

/** Starts the built server in the background, its output ignored (`env`: at least its data dir and port). */
const startServer = (env: Record<string, string>) =>
  spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: 'ignore',
  });

const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'zhanggui-start-'));
  dirs.push(d);
  return d;
};
// A first start runs initdb: seconds here when quiet, a minute or more with other jobs on both cores.
const FIRST_START = 300_000;
const port = async () => String(await freePort());

test('a malformed setting stops the start with one clear line', async () => {
  const r = await run({ PORT: 'eighty', DATA_DIR: freshDir() });
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe('zhanggui: Invalid configuration: PORT="eighty" must be a whole number');
  const pg = await run({ DATABASE_URL: 'mysql://x', PORT: await port() });
  expect(pg.stderr.trim().split('\n')).toHaveLength(1);
  expect(pg.stderr).toContain('DATABASE_URL');
});

test(
  'first start prints a random admin password once; the next start does not',
  async () => {
    const dir = freshDir();
    const first = await run({ DATA_DIR: dir, PORT: await port() });
    const password = first.stdout.match(/with the password\s+(\S+)/)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    const second = await run({ DATA_DIR: dir, PORT: await port() });
    expect(second.stdout).toContain('Zhanggui is serving');
    expect(second.stdout).not.toContain('with the password');
    // The database is at the newest migration: none is applied; the start's phases are logged (bench/start.mjs).
    const serving = JSON.parse(second.stdout.split('\n').find((l) => l.includes('Zhanggui is serving'))!);
    expect(serving.migrations).toEqual([]);
    expect(Object.keys(serving.phases)).toEqual(
      expect.arrayContaining(['boot', 'modules', 'database', 'migrate', 'firstAdmin', 'app', 'listen']),
    );
  },
  FIRST_START,
);

test(
  'once serving, GET / answers the built index.html (the first page)',
  async () => {
    const p = await port();
    const child = startServer({
      ADMIN_PASSWORD: 'start-pass-1',
      DATA_DIR: freshDir(),
      PORT: p,
    });
    try {
      let html = '';
      // Until it answers or exits: a first start creates the database, tens of seconds on a busy machine.
      while (!html && child.exitCode === null) {
        html = await fetch(`http://127.0.0.1:${p}/`).then(
          (r) => (r.status === 200 ? r.text() : `status ${r.status}`),
          () => '',
        );
        if (!html) await new Promise((r) => setTimeout(r, 50));
      }
      expect(html).toContain('<div id="root">');
    } finally {
      child.kill('SIGTERM');
    }
  },
  FIRST_START,
);

test(
  'a first start killed while it creates the database leaves a data dir the next start recovers',
  async () => {
    const dir = freshDir();
    const child = startServer({
      ADMIN_PASSWORD: 'start-pass-1',
      DATA_DIR: dir,
      PORT: await port(),
    });
    // initdb writes PG_VERSION early and the rest of the cluster after it: killed then, the old start left a data dir
    // with PG_VERSION and half a cluster, on which every later start failed.
    const exited = new Promise((r) => child.on('exit', r));
    let killedMidway = false;
    while (child.exitCode === null && !killedMidway) {
      if (existsSync(join(dir, 'PG_VERSION')) || existsSync(join(dir, CREATING, 'PG_VERSION'))) {
        child.kill('SIGKILL');
        killedMidway = true;
      } else await new Promise((r) => setTimeout(r, 5));
    }
    await exited;
    expect(killedMidway).toBe(true);
    const next = await run({ DATA_DIR: dir, PORT: await port(), ADMIN_PASSWORD: 'start-pass-2' });
    expect(next.stderr).toBe('');
    expect(next.stdout).toContain('Zhanggui is serving');
    expect(readdirSync(dir)).not.toContain(CREATING);
  },
  FIRST_START,
);

/** Runs the built rollup command (`npm run rollup` once built): its exit code and output. */
const rollupCommand = (env: Record<string, string>) =>
  runScript('dist/server/rollup.js', { LOG_LEVEL: 'warn', ...env });

test(
  'the rollup command rolls up what the server stored on its data dir, says so, and finds nothing left the next time',
  async () => {
    const dir = freshDir();
    const p = await port();
    const child = startServer({
      ADMIN_PASSWORD: 'rollup-pass-1',
      DATA_DIR: dir,
      PORT: p,
      ROLLUP_SECONDS: '0', // no timer: only the command rolls up
    });
    const exited = new Promise((r) => child.on('exit', r));
    const base = `http://127.0.0.1:${p}/app`;
    const post = (path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json());
    try {
      let up = false;
      while (!up && child.exitCode === null) {
        up = await fetch(`${base}/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (!up) await new Promise((r) => setTimeout(r, 50));
      }
      const token = (await post('/admin/login', {}, { username: 'admin', password: 'rollup-pass-1' })).data
        .token;
      const key = (await post('/admin/setting/site-key/regenerate', { 'Admin-Token': token })).data.key;
      const time = new Date(Date.now() - 60_000).toISOString();
      const events = [1, 2].map((n) => ({
        id: `rollup-cli-${n}`,
        type: 'pageview',
        time,
        domain: 'cli.example.com',
        path: '/',
        visitor: `v${n}`,
      }));
      expect((await post('/site/events', { 'Site-Key': key }, { events })).data).toMatchObject({
        accepted: 2,
      });
    } finally {
      child.kill('SIGTERM');
      await exited; // PGlite's data dir is one process's at a time
    }
    const first = await rollupCommand({ DATA_DIR: dir });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^rollup: 1 day\(s\) recomputed, 0 raw partition\(s\) dropped, \d+ ms\n$/);
    const again = await rollupCommand({ DATA_DIR: dir });
    expect(again.stdout).toMatch(/^rollup: 0 day\(s\) recomputed/);
    const bad = await rollupCommand({ DATABASE_URL: 'mysql://x' });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^rollup: .*DATABASE_URL/);
  },
  FIRST_START,
);

test('a DATA_DIR holding other files and no database stops the start with one line, the files untouched', async () => {
  const dir = freshDir();
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  const r = await run({ DATA_DIR: dir, PORT: await port() });
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain('notes.txt');
  expect(readdirSync(dir)).toEqual(['notes.txt']);
});
