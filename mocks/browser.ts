import { http } from 'msw';
import { setupWorker } from 'msw/browser';
import { createApp } from '../server/app';
import { systemClock } from '../server/core/clock';
import { consoleLogger } from '../server/core/logger';
import { migrate } from '../server/db/migrate';
import { openPglite } from '../server/db/pglite';
import { indexedDbImageStorage } from './image-storage';
import {
  type DemoSnapshot,
  daysSince,
  demoConfig,
  restoreCovers,
  seedDemo,
  shiftDates,
  snapshotFits,
} from './snapshot';

/** The steps of a first visit from the prebuilt database, and of one that migrates and seeds in the page. */
export const SNAPSHOT_PLAN = ['code', 'data', 'engine', 'api'] as const;
export const MIGRATE_PLAN = ['code', 'engine', 'migrate', 'seed', 'api'] as const;
export type DemoStep = (typeof SNAPSHOT_PLAN)[number] | (typeof MIGRATE_PLAN)[number];

/** What the page shows while the demo starts, and when another tab has it (src/demo/screens.ts draws them). */
export interface DemoHooks {
  /** The step under way, in its plan; `done` (0…1) how far into it, of `bytes` (the snapshot's download). */
  step(step: DemoStep, plan: readonly DemoStep[], done?: number, bytes?: number): void;
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
  const config = demoConfig();
  const images = indexedDbImageStorage();
  // A first visit starts from the prebuilt database (mocks/snapshot.ts) when it was built from the migrations this
  // page carries; later visits reopen the one in IndexedDB. PGlite starts before the worker, or the worker would
  // relay its wasm and data through the page. Durable writes (each query flushed to IndexedDB): with
  // relaxedDurability a reload can cut the write-back short and the next visit fails to reopen the database
  // (ErrnoError), as the demo e2e test showed.
  const snapshot = builtSnapshot();
  const existing = await databaseExists();
  const fromSnapshot = !existing && (await snapshotFits(snapshot));
  // How this visit started (the e2e test and the bench read it): a stale snapshot is never loaded.
  document.documentElement.dataset.demoStart = fromSnapshot ? 'snapshot' : existing ? 'reopened' : 'migrated';
  let database: Awaited<ReturnType<typeof openPglite>>;
  if (fromSnapshot && snapshot) {
    hooks.step('data', SNAPSHOT_PLAN, 0, snapshot.bytes);
    let started = false;
    // PGlite reads the tar only once its wasm is compiled: both download at once.
    const tar = download(snapshot, (done) => {
      if (!started) hooks.step('data', SNAPSHOT_PLAN, done, snapshot.bytes);
    }).then((bytes) => {
      started = true;
      hooks.step('engine', SNAPSHOT_PLAN);
      return bytes;
    });
    database = await openPglite(DATA_DIR, {
      relaxedDurability: false,
      loadDataDir: { type: 'application/x-tar', arrayBuffer: () => tar } as unknown as Blob,
      initdbWasmModule: NO_INITDB,
    });
    hooks.step('api', SNAPSHOT_PLAN);
    await migrate(database.db);
    await shiftDates(database.db, daysSince(snapshot.seededAt, new Date()));
    await restoreCovers(images, config);
  } else {
    hooks.step('engine', MIGRATE_PLAN);
    database = await openPglite(DATA_DIR, { relaxedDurability: false });
    hooks.step('migrate', MIGRATE_PLAN);
    await migrate(database.db);
    hooks.step('seed', MIGRATE_PLAN);
    await seedDemo(database.db, config, images);
    hooks.step('api', MIGRATE_PLAN);
  }
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
  try {
    localStorage.setItem('zg-demo-db', '1');
  } catch {}
  return true;
}

const DATA_DIR = 'idb://zhanggui-demo';
/** IndexedDB's name for it (PGlite mounts it under /pglite). */
const IDB_NAME = '/pglite/zhanggui-demo';
/** The smallest valid wasm module: stands in for initdb, which a database loaded from a tar never runs. */
const NO_INITDB = new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));

/** The snapshot this page was built with (scripts/demo.mjs), or null. */
function builtSnapshot(): DemoSnapshot | null {
  const raw = import.meta.env.VITE_DEMO_SNAPSHOT as string | undefined;
  if (!raw) return null;
  try {
    return JSON.parse(raw) as DemoSnapshot;
  } catch {
    return null;
  }
}

/** Whether this browser already holds the demo's database (a reload or a later visit). */
async function databaseExists(): Promise<boolean> {
  if (!('databases' in indexedDB)) return localStorage.getItem('zg-demo-db') === '1';
  return (await indexedDB.databases()).some((d) => d.name === IDB_NAME);
}

/** The snapshot's bytes (decoded by the browser from the encoding the server chose), reporting how far. */
async function download(snapshot: DemoSnapshot, progress: (done: number) => void): Promise<ArrayBuffer> {
  const res = await fetch(snapshot.url);
  if (!res.ok || !res.body) throw new Error(`${res.status} ${snapshot.url}`);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    progress(Math.min(1, received / snapshot.bytes));
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out.buffer;
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
