import { http } from 'msw';
import { setupWorker } from 'msw/browser';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { systemClock } from '../server/core/clock';
import { consoleLogger } from '../server/core/logger';
import { migrate } from '../server/db/migrate';
import { openPglite } from '../server/db/pglite';
import { seed } from '../server/seed';
import { DEMO_CREDENTIALS } from './credentials';
import { indexedDbImageStorage } from './image-storage';

/**
 * Demo mode: the real API (server/app.ts) on PGlite in IndexedDB, answering the page's /app/* requests through
 * msw. One tab at a time: two tabs would each run a database over the same IndexedDB and lose writes.
 */
export async function startDemo(): Promise<void> {
  if (!(await holdTabLock())) {
    document.body.textContent =
      'Zhanggui demo is already open in another tab. / 掌柜演示已在另一个标签页中打开。';
    throw new Error('demo already open in another tab');
  }
  // PGlite starts before the worker, or the worker would relay its wasm and data through the page.
  // Durable writes (each query flushed to IndexedDB): with relaxedDurability a reload can cut the write-back short
  // and the next visit fails to reopen the database (ErrnoError), as the demo e2e test showed.
  const database = await openPglite('idb://zhanggui-demo', { relaxedDurability: false });
  const config = loadConfig({ ADMIN_PASSWORD: DEMO_CREDENTIALS.password, PASSWORD_ITERATIONS: '100000' });
  await migrate(database.db);
  const images = indexedDbImageStorage();
  await seed(database.db, config, { images, samplePassword: DEMO_CREDENTIALS.password });
  const app = createApp({
    db: database.db,
    config,
    clock: systemClock,
    logger: consoleLogger,
    clientAddress: () => 'demo',
    images,
  });
  // /img/* is the image host when imgdomain is empty (same origin): the same app serves the stored images.
  const worker = setupWorker(
    http.all('/app/*', ({ request }) => app.fetch(request)),
    http.get('/img/*', ({ request }) => app.fetch(request)),
  );
  await worker.start({
    onUnhandledRequest: 'bypass',
    quiet: true,
    serviceWorker: { url: '/mockServiceWorker.js' },
  });
}

/** Resolves true once this tab holds the demo's lock (kept until the tab closes), false if another tab has it. */
function holdTabLock(): Promise<boolean> {
  if (!('locks' in navigator)) return Promise.resolve(true);
  return new Promise((resolve) => {
    navigator.locks.request('zhanggui-demo', { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      return lock ? new Promise<never>(() => {}) : undefined;
    });
  });
}
