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

/** What the page shows while the demo starts, and when another tab has it (src/demo/screens.ts draws them). */
export interface DemoHooks {
  step(step: 'engine' | 'migrate' | 'seed' | 'api'): void;
  /** Another tab has the demo (or this one handed it over): `takeOver` asks for it and reloads once it is free. */
  otherTab(takeOver: () => Promise<void>): void;
}

const LOCK = 'zhanggui-demo';

/**
 * Demo mode: the real API (server/app.ts) on PGlite in IndexedDB, answering the page's /app/* requests through
 * msw. One tab at a time: two tabs would each run a database over the same IndexedDB and lose writes. Resolves
 * true once the API answers, false when another tab holds the demo (the page then says so and offers to take it
 * over; the tab that had it closes its database, lets go and shows the same page).
 */
export async function startDemo(hooks: DemoHooks): Promise<boolean> {
  const channel = 'BroadcastChannel' in window ? new BroadcastChannel(LOCK) : null;
  const takeOver = async () => {
    channel?.postMessage('take-over');
    // granted once the holder has let go; released at once, and the reload takes it for good
    await navigator.locks.request(LOCK, async () => {});
    window.location.reload();
  };
  const held = await holdTabLock();
  if (!held) {
    hooks.otherTab(takeOver);
    return false;
  }
  hooks.step('engine');
  // PGlite starts before the worker, or the worker would relay its wasm and data through the page.
  // Durable writes (each query flushed to IndexedDB): with relaxedDurability a reload can cut the write-back short
  // and the next visit fails to reopen the database (ErrnoError), as the demo e2e test showed.
  const database = await openPglite('idb://zhanggui-demo', { relaxedDurability: false });
  const config = loadConfig({ ADMIN_PASSWORD: DEMO_CREDENTIALS.password, PASSWORD_ITERATIONS: '100000' });
  hooks.step('migrate');
  await migrate(database.db);
  const images = indexedDbImageStorage();
  hooks.step('seed');
  await seed(database.db, config, { images, samplePassword: DEMO_CREDENTIALS.password });
  hooks.step('api');
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
  if (channel)
    channel.onmessage = async (event) => {
      if (event.data !== 'take-over') return;
      channel.onmessage = null;
      hooks.otherTab(takeOver);
      worker.stop();
      await database.close().catch(() => {});
      held.release();
    };
  return true;
}

/** This tab's hold on the demo (kept until released or the tab closes), or null when another tab has it. */
function holdTabLock(): Promise<{ release: () => void } | null> {
  if (!('locks' in navigator)) return Promise.resolve({ release: () => {} });
  return new Promise((resolve) => {
    navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(null);
        return undefined;
      }
      return new Promise<void>((release) => resolve({ release }));
    });
  });
}
