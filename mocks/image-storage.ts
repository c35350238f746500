import type { ImageStorage } from '../server/core/image-storage';

/**
 * Demo mode's image store: the encrypted images in IndexedDB (its own database beside PGlite's), so uploads
 * survive reloads like the rest of the demo's data. Keys are the image paths, values the stored bytes.
 */
export function indexedDbImageStorage(name = 'zhanggui-demo-images'): ImageStorage {
  const STORE = 'images';
  let opened: Promise<IDBDatabase> | undefined;
  const open = () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return opened;
  };
  const run = async <T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest<T>) => {
    const db = await open();
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = op(tx.objectStore(STORE));
      // Resolve once the transaction is durable, not merely when the request succeeded.
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? req.error);
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  };
  return {
    async put(path, bytes) {
      await run('readwrite', (s) => s.put(bytes.slice().buffer, path));
    },
    async get(path) {
      const value = await run<unknown>('readonly', (s) => s.get(path));
      return value instanceof ArrayBuffer ? new Uint8Array(value) : null;
    },
    async has(path) {
      return (await run<number>('readonly', (s) => s.count(path))) > 0;
    },
    async delete(path) {
      await run('readwrite', (s) => s.delete(path));
    },
  };
}
