import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { ImageStorage } from '../core/image-storage';
import { isImagePath } from '../modules/images/paths';

/**
 * Images as files under `root` (DATA_DIR/images): `/upload/2026/11/<hex>.jpg` is `<root>/upload/2026/11/<hex>.jpg`.
 * Writes go to a temporary file renamed into place, so a reader sees a whole image or none. Only paths of the
 * upload shape are accepted, and the resolved file must stay under the root.
 */
export function fileImageStorage(root: string): ImageStorage {
  const base = resolve(root);
  const fileOf = (path: string) => {
    const file = resolve(join(base, path));
    if (!isImagePath(path) || !file.startsWith(base + sep)) throw new Error(`not an image path: ${path}`);
    return file;
  };
  return {
    async put(path, bytes) {
      const file = fileOf(path);
      await mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
    },
    async get(path) {
      try {
        return new Uint8Array(await readFile(fileOf(path)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async has(path) {
      try {
        await access(fileOf(path));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
    async delete(path) {
      await rm(fileOf(path), { force: true });
    },
  };
}
