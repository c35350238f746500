import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built SPA: files as they are, hashed assets (`/assets/…`) cached for a year, and every other
 * path (history routing: /movie/review, /login?redirect=…) answered with index.html, never cached.
 */
export function spaHandler(root: string) {
  const indexPath = join(root, 'index.html');
  // index.html is read once (the first page, then every history route), kept once found: a build replaces the
  // server's files too and needs a restart anyway.
  let index: string | null = null;
  return async (c: Context) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(c.req.path);
    } catch {
      return c.text('Bad request: malformed %-encoding in the path', 400); // a client's error, not the server's
    }
    const rel = normalize(decoded).replace(/^([/\\])+/, '');
    const file = join(root, rel);
    if (rel && file.startsWith(root + sep)) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const immutable = rel.startsWith(`assets${sep}`);
        return c.body(await readFile(file), 200, {
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
      }
      if (extname(rel)) return c.text('Not found', 404); // a missing asset is not a route
    }
    index ??= await readFile(indexPath, 'utf8').catch(() => null);
    const html = index;
    if (!html) return c.text('The admin is not built: run `npm run build`.', 503);
    return c.body(html, 200, { 'Content-Type': TYPES['.html'], 'Cache-Control': 'no-cache' });
  };
}
