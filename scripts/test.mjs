// `npm test`: type-check, lint, then every test project in turn; prints one closing line `N passed, N failed`.
// The PostgreSQL run of the API suite happens when TEST_DATABASE_URL (default the local server) is reachable.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { failures } from './test-count.mjs';

const node = process.execPath;
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const only = process.argv.slice(2);

function step(name, args) {
  process.stdout.write(`\n▶ ${name}\n`);
  execFileSync(node, args, { stdio: 'inherit' });
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

if (!only.length) {
  step('type-check (tsc)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']);
  step('lint (biome)', ['node_modules/@biomejs/biome/bin/biome', 'check', '.']);
}

const projects = only.length ? only : ['ui', 'api', 'api-pg', 'e2e'];
let passed = 0;
let failed = 0;
let skipped = 0;
mkdirSync('dist/test-results', { recursive: true });
for (const project of projects) {
  if (project === 'api-pg' && !(await reachable())) {
    process.stdout.write(
      `\n▶ api-pg: skipped, no PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} (set TEST_DATABASE_URL)\n`,
    );
    continue;
  }
  if (project === 'e2e') {
    step('build (for the end-to-end suite)', ['scripts/build.mjs']);
    step('build demo mode (for the end-to-end suite)', ['scripts/demo.mjs']);
  }
  process.stdout.write(`\n▶ ${project}\n`);
  const out = `dist/test-results/${project}.json`;
  rmSync(out, { force: true });
  const config = project === 'e2e' ? ['--config', 'tests/e2e/vitest.config.ts'] : ['--project', project];
  spawnSync(
    node,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      ...config,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${out}`,
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: url },
    },
  );
  try {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += failures(r);
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } catch {
    failed += 1;
    process.stdout.write(`${project}: no results (the run crashed)\n`);
  }
}
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed ? 1 : 0);
