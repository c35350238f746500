// `npm run bench [-- name…]`: runs benchmarks in bench/<name>.mjs (all when none is named), prints their figures and
// writes them to bench/results/<name>.md and .json beside the machine they were taken on (its CPU yardstick before
// and after, load, cores, Node), so figures live in files the benches write rather than in prose retyped by hand.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { yardstick } from '../bench/_timing.mjs';
import { benchNodeArgs } from './server-args.mjs';

const all = readdirSync('bench')
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
  .map((f) => f.slice(0, -4));
const names = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const name of names) {
  if (!all.includes(name)) {
    console.error(`no benchmark "${name}"; there are: ${all.join(', ')}`);
    process.exit(2);
  }
}

/** The bench's output, printed as it comes and kept for the results file. */
function run(name) {
  return new Promise((done) => {
    const child = spawn(process.execPath, benchNodeArgs(name), { stdio: ['inherit', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => {
      chunks.push(chunk);
      process.stdout.write(chunk);
    });
    child.on('close', (code) => done({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

/** What the figures were taken on: they are read beside it, since this machine's speed varies within minutes. */
function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
    yardstickMs: Number(yardstick().toFixed(2)),
  };
}

export function resultsMarkdown({ name, startedAt, endedAt, before, after, code, output }) {
  return [
    `# bench: ${name}`,
    '',
    `Written by \`npm run bench -- ${name}\`; do not edit by hand.`,
    '',
    `- run: ${startedAt} → ${endedAt}${code === 0 ? '' : ` (exit code ${code}: incomplete)`}`,
    `- machine: ${before.cpu}, ${before.cores} cores, Node ${before.node}`,
    `- CPU yardstick (bench/_timing.mjs, lower is faster): ${before.yardstickMs} ms before, ${after.yardstickMs} ms after`,
    `- load average before: ${before.loadAverage.join(' ')}`,
    '',
    '```',
    output.trimEnd(),
    '```',
    '',
  ].join('\n');
}

let failed = 0;
mkdirSync('bench/results', { recursive: true });
for (const name of names) {
  console.log(`\n=== bench: ${name} ===`);
  const before = machine();
  const startedAt = new Date().toISOString();
  const { code, output } = await run(name);
  const after = machine();
  const result = { name, startedAt, endedAt: new Date().toISOString(), before, after, code, output };
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`bench/results/${name}.md`, resultsMarkdown(result));
  console.log(`(written: bench/results/${name}.md, .json)`);
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
