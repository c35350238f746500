// Start time on an existing data dir: spawn → the first page (GET / answering the SPA's index.html) and →
// /app/health, with the phases the server logs ("Zhanggui is serving": boot, modules, database, migrate, firstAdmin,
// app, listen; ms). Targets (issue #18): ≤ 1 s to the first page on a quiet machine.
// `SERVER=/other/checkout node bench/start.mjs` times another checkout's build (before/after figures).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureBuilt } from './_server.mjs';
import { loadLine, percentile } from './_timing.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const checkout = resolve(process.env.SERVER ?? '.');
if (!process.env.SERVER) ensureBuilt();

/** One start: spawn, poll GET / every 5 ms until it answers the index, then /app/health; the logged phases. */
async function start(dataDir, port) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(checkout, 'dist/server/main.js')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'bench-pass-1',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const url = `http://127.0.0.1:${port}`;
  let page;
  while (page === undefined) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (performance.now() - t0 > 60_000) throw new Error('no first page within 60 s');
    const html = await fetch(`${url}/`).then(
      (r) => {
        if (r.status === 503) throw new Error('GET / answers 503: is the admin built?');
        return r.ok ? r.text() : '';
      },
      () => '',
    );
    if (html.includes('<div id="root">') || html.includes('<!doctype html')) page = performance.now() - t0;
    else await new Promise((r) => setTimeout(r, 5));
  }
  const ok = await fetch(`${url}/app/health`).then((r) => r.ok);
  if (!ok) throw new Error('/app/health did not answer');
  const health = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 20)); // the serving line is written just after listening
  const line = out.split('\n').find((l) => l.includes('Zhanggui is serving'));
  const logged = line ? JSON.parse(line) : {};
  await new Promise((r) => {
    child.once('exit', r);
    child.kill('SIGTERM');
  });
  return { page, health, startMs: logged.startMs, phases: logged.phases ?? {} };
}

const median = (xs) => percentile(xs, 50);

const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-'));
const port = 23000 + Math.floor(Math.random() * 1000);
try {
  const first = await start(dir, port);
  console.log(
    `first start (empty data dir: initdb, migrations, first admin): ${first.page.toFixed(0)} ms to the first page (${loadLine()})`,
  );
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await start(dir, port));
  const pages = runs.map((r) => r.page);
  console.log(`\nstart on the existing data dir (${checkout}), ${RUNS} runs (${loadLine()}):`);
  console.log(
    `  spawn → first page (GET / = index.html): median ${median(pages).toFixed(0)} ms, max ${Math.max(...pages).toFixed(0)} ms (target ≤ 1000 ms quiet)`,
  );
  const healths = runs.map((r) => r.health);
  console.log(
    `  spawn → /app/health:                     median ${median(healths).toFixed(0)} ms, max ${Math.max(...healths).toFixed(0)} ms`,
  );
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.phases)))];
  if (runs.every((r) => r.startMs !== undefined))
    console.log(
      `  the server's own startMs (process start → listening): median ${median(runs.map((r) => r.startMs))} ms`,
    );
  if (names.length) {
    console.log(
      '  phases the server logs, median ms (modules and database run at once; boot = Node + main.js imports):',
    );
    console.log(`    ${names.map((n) => `${n} ${median(runs.map((r) => r.phases[n] ?? 0))}`).join(', ')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
