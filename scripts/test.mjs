// `npm test`: type-check, lint, builds and every test project; prints the time of each step and one closing line
// `N passed, N failed`. The PostgreSQL run of the API suite happens when TEST_DATABASE_URL (default the local
// server) is reachable. `npm test -- ui api` runs only those projects, one after another, streaming their output.
//
// A full run uses both cores: the steps run in three lanes at once, each lane one step after another —
//   lane 1: type-check, build, demo build, then end-to-end parts (the builds are what the end-to-end suite needs),
//   lane 2: lint, api (PGlite), then end-to-end parts,
//   lane 3: ui, api-pg, then end-to-end parts.
// The PGlite suite, the longest step, starts at once (after ui it was the last to end).
// Three, on two cores: the PostgreSQL suite and the end-to-end parts wait on their database, server and browser for
// much of their time (two lanes left the cores idle for 46 % of a 20-minute run). The end-to-end files are dealt in
// parts of about two minutes, the longest files first, from one queue: lane 1 starts on them after the builds, the
// others join when their API suites end, two parts at most at once (E2E_AT_ONCE). Each part is a vitest run of its
// own with its own server and database (tests/e2e/setup.ts), so two parts at once never share state.
// Each step's output is printed in one piece when it ends (two vitest runs writing at once would interleave).
// A failing type-check or lint stops the run, as before: nothing is tested on code that does not compile.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { e2eParts } from './e2e-parts.mjs';
import { failures } from './test-count.mjs';

const node = process.execPath;
const E2E_AT_ONCE = 2;
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const only = process.argv.slice(2);
const started = Date.now();
/** How long each step took, printed at the end: where the time of `npm test` goes. */
const timings = [];
const children = new Set();
let passed = 0;
let failed = 0;
let skipped = 0;

const clock = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** Runs `node args…`; streams its output, or (buffered) prints it in one piece when it ends. Resolves its code. */
function run(name, args, { buffered, env }) {
  const t0 = Date.now();
  if (!buffered) process.stdout.write(`\n▶ ${name}\n`);
  return new Promise((resolve) => {
    const child = spawn(node, args, {
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env, ...(buffered ? { FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } : {}) },
    });
    children.add(child);
    const chunks = [];
    child.stdout?.on('data', (d) => chunks.push(d));
    child.stderr?.on('data', (d) => chunks.push(d));
    child.on('close', (code, signal) => {
      children.delete(child);
      const ms = Date.now() - t0;
      timings.push([name, ms, code === 0]);
      if (buffered)
        process.stdout.write(`\n▶ ${name} (${clock(ms)})\n${Buffer.concat(chunks).toString('utf8')}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function reachable() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A step that must pass for the run to go on (type-check, lint, builds): its failure ends the run. */
async function gate(name, args, buffered) {
  const code = await run(name, args, { buffered });
  if (code !== 0) {
    for (const child of children) child.kill('SIGTERM');
    process.stdout.write(`\n${name} failed: stopping.\n`);
    printTimes();
    process.exit(code);
  }
}

async function project(name, buffered, files = []) {
  if (name === 'api-pg' && !(await reachable())) {
    process.stdout.write(
      `\n▶ api-pg: skipped, no PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} (set TEST_DATABASE_URL)\n`,
    );
    return;
  }
  const label = files.length
    ? `${name} (${files.map((f) => f.replace(/^.*\/|\.test\.ts$/g, '')).join(', ')})`
    : name;
  const out = `dist/test-results/${files.length ? `${name}-${files[0].replace(/^.*\/|\.test\.ts$/g, '')}` : name}.json`;
  rmSync(out, { force: true });
  // `ui` is two vitest projects: the files sharing one worker and the few run isolated (vitest.config.ts).
  // The API suites in two workers: vitest's default on two cores is one (cores - 1), so they ran their files one after
  // another however idle the other core was; two workers cost about the same CPU (each imports the server once). The
  // PostgreSQL suite waits on its server for much of its time, and each file has a database of its own: with one worker
  // it was the longest step.
  const config =
    name === 'e2e'
      ? ['--config', 'tests/e2e/vitest.config.ts']
      : name === 'ui'
        ? ['--project', 'ui', '--project', 'ui-isolated']
        : ['--project', name, '--maxWorkers=2'];
  await run(
    label,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      ...config,
      ...files,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${out}`,
    ],
    { buffered, env: { TEST_DATABASE_URL: url } },
  );
  try {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += failures(r);
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } catch {
    failed += 1;
    process.stdout.write(`${name}: no results (the run crashed)\n`);
  }
}

const builds = async (buffered) => {
  await gate('build (for the end-to-end suite)', ['scripts/build.mjs'], buffered);
  // Precompressed at the lowest levels: the end-to-end suite serves it with `vite preview`, which never reads them.
  await gate('build demo mode (for the end-to-end suite)', ['scripts/demo.mjs', '--fast-compress'], buffered);
};

function printTimes() {
  process.stdout.write('\nTime per step:\n');
  for (const [name, ms, ok] of timings)
    process.stdout.write(`  ${clock(ms).padStart(6)}  ${name}${ok ? '' : '  (failed)'}\n`);
  process.stdout.write(`  ${clock(Date.now() - started).padStart(6)}  total (wall clock)\n`);
}

mkdirSync('dist/test-results', { recursive: true });
if (only.length) {
  for (const name of only) {
    if (name === 'e2e') await builds(false);
    await project(name, false);
  }
} else {
  const parts = e2eParts(readdirSync('tests/e2e').filter((f) => f.endsWith('.test.ts')));
  let markBuilt;
  const built = new Promise((resolve) => {
    markBuilt = resolve;
  });
  // At most two end-to-end parts at once: each drives a browser and a server, and three on two cores starved each
  // other (each part took several times as long as alone).
  let running = 0;
  const freed = [];
  /** Takes end-to-end parts from the queue until it is empty (every lane does, once the builds are there). */
  const e2e = async () => {
    await built;
    for (;;) {
      while (running >= E2E_AT_ONCE) await new Promise((resolve) => freed.push(resolve));
      const files = parts.shift();
      if (!files) return;
      running += 1;
      try {
        await project('e2e', true, files);
      } finally {
        running -= 1;
        freed.shift()?.();
      }
    }
  };
  await Promise.all([
    (async () => {
      // One thread: tsc's checkers in parallel cost about twice the CPU on cores the other lanes want, for a little less
      // wall time only when the machine is idle, which it never is here.
      await gate(
        'type-check (tsc)',
        ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.', '--singleThreaded'],
        true,
      );
      await builds(true);
      markBuilt();
      await e2e();
    })(),
    (async () => {
      await gate('lint (biome)', ['node_modules/@biomejs/biome/bin/biome', 'check', '.'], true);
      await project('api', true);
      await e2e();
    })(),
    (async () => {
      for (const name of ['ui', 'api-pg']) await project(name, true);
      await e2e();
    })(),
  ]);
}
printTimes();
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed ? 1 : 0);
