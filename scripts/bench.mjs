// `npm run bench [-- name…]`: runs benchmarks in bench/<name>.mjs (all when none is named) and prints figures.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const all = readdirSync('bench')
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
  .map((f) => f.slice(0, -4));
const names = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const name of names) {
  if (!all.includes(name)) {
    console.error(`no benchmark "${name}"; there are: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== bench: ${name} ===`);
  execFileSync(process.execPath, [`bench/${name}.mjs`], { stdio: 'inherit' });
}
