// `npm run demo`: a static build of the admin in demo mode (dist/demo) — the real API runs in the browser behind
// msw on PGlite. `npm run demo -- --serve` also serves it on http://127.0.0.1:4173. `--fast-compress` (`npm test`)
// precompresses it at the lowest levels (scripts/demo-serve.mjs): not a build to serve or measure.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompress, serveDemo } from './demo-serve.mjs';

// The prebuilt database a first visit starts from (mocks/snapshot.ts): migrated and seeded in Node by
// mocks/snapshot-build.ts, kept in node_modules/.cache keyed by everything it is made from (the server, common
// code, the snapshot's own code, the lockfile), since seeding takes a minute or two.
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)],
  );
}
const key = createHash('sha256');
const inputs = [
  ...sources('server'),
  ...sources('common'),
  ...['snapshot.ts', 'snapshot-build.ts', 'credentials.ts'].map((f) => join('mocks', f)),
  'package-lock.json',
];
for (const path of inputs.sort()) key.update(path).update('\0').update(readFileSync(path)).update('\0');
const cache = join('node_modules', '.cache', 'demo-snapshot', key.digest('hex').slice(0, 16));
if (!existsSync(join(cache, 'demo-db.json'))) {
  mkdirSync(cache, { recursive: true });
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { build } from 'vite';
      await build({ configFile: false, logLevel: 'warn', build: { ssr: 'mocks/snapshot-build.ts', outDir: ${JSON.stringify(cache)},
        emptyOutDir: false, target: 'node20', chunkSizeWarningLimit: 100000, rollupOptions: { output: { entryFileNames: 'snapshot-build.mjs' } } } });`,
    ],
    { stdio: 'inherit' },
  );
  execFileSync(process.execPath, [join(cache, 'snapshot-build.mjs'), cache], { stdio: 'inherit' });
}
const built = JSON.parse(readFileSync(join(cache, 'demo-db.json'), 'utf8'));
const tar = readFileSync(join(cache, 'demo-db.tar'));
const tarName = `demo-db-${createHash('sha256').update(tar).digest('hex').slice(0, 12)}.tar`;
const snapshot = {
  url: `/assets/${tarName}`,
  bytes: tar.length,
  migrations: built.migrations,
  seededAt: built.seededAt,
};

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
  env: { ...process.env, VITE_DEMO_SNAPSHOT: JSON.stringify(snapshot) },
});
copyFileSync(join(cache, 'demo-db.tar'), join('dist', 'demo', 'assets', tarName));
const { raw, br } = precompress('dist/demo', { fast: process.argv.includes('--fast-compress') });
process.stdout.write(
  `Demo built in dist/demo (${(raw / 1e6).toFixed(1)} MB, ${(br / 1e6).toFixed(1)} MB precompressed with brotli). ` +
    'Serve it over http://localhost or https (service workers need one).\n',
);
if (process.argv.includes('--serve')) {
  await serveDemo('dist/demo', { port: 4173, host: '127.0.0.1' });
  process.stdout.write('Serving the demo on http://localhost:4173\n');
}
