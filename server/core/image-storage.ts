/**
 * Where uploaded (encrypted) images live. A platform dependency like the database: the Node entry stores them
 * under `DATA_DIR/images` (server/node/image-storage.ts), demo mode in the browser's IndexedDB
 * (mocks/image-storage.ts), tests in memory. Paths are the images module's (`/upload/YYYY/MM/<hex>.<ext>`),
 * already checked by it; an implementation still refuses anything that could leave its root.
 */
export interface ImageStorage {
  put(path: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or null when nothing is stored under `path`. */
  get(path: string): Promise<Uint8Array | null>;
  /** Whether something is stored under `path`, without reading it. */
  has(path: string): Promise<boolean>;
  delete(path: string): Promise<void>;
}

/** Images in a Map: for tests and anything short-lived. Copies on the way in and out, like a real store. */
export function memoryImageStorage(): ImageStorage & { paths(): string[] } {
  const files = new Map<string, Uint8Array>();
  return {
    async put(path, bytes) {
      files.set(path, bytes.slice());
    },
    async get(path) {
      return files.get(path)?.slice() ?? null;
    },
    async has(path) {
      return files.has(path);
    },
    async delete(path) {
      files.delete(path);
    },
    paths: () => [...files.keys()],
  };
}
