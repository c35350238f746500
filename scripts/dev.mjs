// `npm run dev`: the API (rebuilt and restarted on change) and Vite with hot reload; Vite proxies /app and /img to the API.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '8080';
const run = (args, env = {}) =>
  spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });

const children = [
  run([
    'node_modules/vite/bin/vite.js',
    'build',
    '-c',
    'vite.server.config.ts',
    '--watch',
    '--logLevel',
    'warn',
  ]),
  run(['--watch-path=dist/server', '--watch-preserve-output', 'scripts/dev-server.mjs'], { PORT: port }),
  run(['node_modules/vite/bin/vite.js'], { PORT: port }),
];
const stop = () => {
  for (const c of children) c.kill();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
