// `npm start`: builds what is stale (first run, or sources changed), then serves the admin and the API.
import { execFileSync } from 'node:child_process';
import { isStale } from './build-state.mjs';

if (isStale()) {
  process.stdout.write('Building the admin and the server (only when the sources changed)…\n');
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
await import('../dist/server/main.js');
