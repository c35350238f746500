// `npm run demo`: a static build of the admin in demo mode (dist/demo) — the real API runs in the browser behind
// msw on PGlite. `npm run demo -- --serve` also serves it on http://127.0.0.1:4173.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { precompress, serveDemo } from './demo-serve.mjs';

// msw's worker script must match the installed msw: copy it at every build instead of committing a copy.
// One change: msw's worker unregisters itself when its last page closes, and a reload is exactly that (the old
// page says CLIENT_CLOSED on beforeunload); the new page's registration then races the unregistration and the
// console shows "Failed to update a ServiceWorker … Not found" although the file is served. The demo keeps its
// worker registered instead (it only answers pages that activated it, so an idle registration costs nothing).
mkdirSync('mocks/public', { recursive: true });
const UNREGISTER = /\n(\s*)self\.registration\.unregister\(\)\n/;
const worker = readFileSync('node_modules/msw/lib/mockServiceWorker.js', 'utf8');
if (!UNREGISTER.test(worker)) throw new Error("msw's worker changed: check its CLIENT_CLOSED handling");
writeFileSync(
  'mocks/public/mockServiceWorker.js',
  worker.replace(UNREGISTER, '\n$1// zhanggui demo: stay registered across reloads (scripts/demo.mjs)\n'),
);
const vite = ['node_modules/vite/bin/vite.js'];
execFileSync(process.execPath, [...vite, 'build', '--mode', 'demo', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
const { raw, br } = precompress('dist/demo');
process.stdout.write(
  `Demo built in dist/demo (${(raw / 1e6).toFixed(1)} MB, ${(br / 1e6).toFixed(1)} MB precompressed with brotli). ` +
    'Serve it over http://localhost or https (service workers need one).\n',
);
if (process.argv.includes('--serve')) {
  await serveDemo('dist/demo', { port: 4173, host: '127.0.0.1' });
  process.stdout.write('Serving the demo on http://localhost:4173\n');
}
