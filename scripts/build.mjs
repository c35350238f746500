// `npm run build`: the SPA (dist/client) and the Node server (dist/server), then the stamp `npm start` checks.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { STAMP } from './build-state.mjs';

const vite = (args) =>
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', ...args], { stdio: 'inherit' });
vite(['build', '--logLevel', 'warn']);
vite(['build', '-c', 'vite.server.config.ts', '--logLevel', 'warn']);
mkdirSync('dist', { recursive: true });
writeFileSync(STAMP, new Date().toISOString());
