// `npm run rollup`: builds the server when stale, then runs one statistics rollup (server/node/rollup-cli.ts).
import { execFileSync } from 'node:child_process';
import { isStale } from './build-state.mjs';

if (isStale()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
await import('../dist/server/rollup.js');
