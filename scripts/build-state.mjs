// Is dist/ older than the sources it is built from? Used by `npm start` to build only when needed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = [
  'src',
  'server',
  'i18n',
  'mocks',
  'common',
  'index.html',
  'package-lock.json',
  'vite.config.ts',
  'vite.server.config.ts',
  'public',
];
export const STAMP = 'dist/.built';

function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let max = info.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

export function isStale(root = '.') {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, 'dist/server/main.js'))) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.some((s) => newest(join(root, s)) > built);
}
