// `npm run demo`: a static build of the admin in demo mode (dist/demo) — the real API runs in the browser behind
// msw on PGlite. `npm run demo -- --serve` also serves it on http://127.0.0.1:4173.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';

// msw's worker script must match the installed msw: copy it at every build instead of committing a copy.
mkdirSync('mocks/public', { recursive: true });
copyFileSync('node_modules/msw/lib/mockServiceWorker.js', 'mocks/public/mockServiceWorker.js');
const vite = ['node_modules/vite/bin/vite.js'];
execFileSync(process.execPath, [...vite, 'build', '--mode', 'demo', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
process.stdout.write(
  'Demo built in dist/demo. Serve it over http://localhost or https (service workers need one).\n',
);
if (process.argv.includes('--serve')) {
  spawn(process.execPath, [...vite, 'preview', '--mode', 'demo', '--host', '127.0.0.1', '--port', '4173'], {
    stdio: 'inherit',
  });
}
