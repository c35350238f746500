// Start time: spawn → /app/health answering, on a fresh data dir (initdb) and then on the existing one.
// Target (issue #2): ≤ 2 s on an existing data dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startServer, stop } from './_server.mjs';

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-'));
const port = 23000 + Math.floor(Math.random() * 1000);
const first = await startServer(dir, port);
await stop(first.child);
const runs = [];
for (let i = 0; i < 5; i++) {
  const s = await startServer(dir, port);
  runs.push(s.ms);
  await stop(s.child);
}
rmSync(dir, { recursive: true, force: true });
runs.sort((a, b) => a - b);
console.log(`first start (empty data dir, initdb): ${first.ms.toFixed(0)} ms`);
console.log(
  `start on the existing data dir, 5 runs: median ${runs[2].toFixed(0)} ms, max ${runs[4].toFixed(0)} ms (target ≤ 2000 ms)`,
);
