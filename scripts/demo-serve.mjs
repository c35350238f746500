// The demo's static files: precompressed once after the build (`.br`, `.gz` beside each text or binary asset) and
// served with the encoding the browser accepts, so the 15 MB of PGlite's wasm and data cross the wire as ~4 MB.
// Used by `npm run demo -- --serve` and `npm run bench -- demo`.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.tar': 'application/x-tar',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.wasm', '.data', '.tar']);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const CACHE = 'node_modules/.cache/demo-brotli';

/**
 * The brotli form of `body` at the highest quality, with a 16 MB window for the big files (the database snapshot
 * repeats catalog pages megabytes apart). Quality 11 takes some 30 s for PGlite's 15 MB of wasm and data, and saves
 * 0.56 MB of the first visit against quality 9: the result is kept by the content's hash, so only a build whose big
 * files changed pays it. `fast`: quality 1, nothing kept (below).
 */
function brotli(body, fast) {
  if (fast) return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  const big = body.length > 2_000_000;
  const key = createHash('sha256').update(body).digest('hex').slice(0, 32);
  const cached = join(CACHE, `${key}.q11${big ? 'w24' : ''}.br`);
  if (existsSync(cached)) return readFileSync(cached);
  const b = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: big ? 24 : 22,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  if (big) {
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${cached}.${process.pid}`;
    writeFileSync(tmp, b);
    renameSync(tmp, cached);
  }
  return b;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file over 1 KB. `fast` (`npm test`'s demo build) at
 * brotli quality 1 and gzip level 1: its end-to-end suite serves the build with `vite preview`, which never reads
 * these files, and the highest levels are by far the longest part of a demo build on a clean clone.
 */
export function precompress(dir, { fast = false } = {}) {
  let raw = 0;
  let br = 0;
  for (const path of [...files(dir)]) {
    if (!COMPRESSIBLE.has(extname(path)) || statSync(path).size < 1024) continue;
    const body = readFileSync(path);
    const b = brotli(body, fast);
    writeFileSync(`${path}.br`, b);
    writeFileSync(`${path}.gz`, gzipSync(body, { level: fast ? 1 : 9 }));
    raw += body.length;
    br += b.length;
  }
  return { raw, br };
}

/** Serves `dir` (an SPA: unknown paths outside /assets get index.html), precompressed when the client accepts. */
export function serveDemo(dir, { port = 4173, host = '127.0.0.1' } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = resolve(root, `.${pathname}`);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(404).end();
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) {
      if (pathname.startsWith('/assets/')) {
        res.writeHead(404).end();
        return;
      }
      file = join(root, 'index.html');
    }
    const ext = extname(file);
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const headers = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control': file.includes(`${sep}assets${sep}`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
      Vary: 'Accept-Encoding',
    };
    let body = file;
    if (/\bbr\b/.test(accepts) && existsSync(`${file}.br`)) {
      body = `${file}.br`;
      headers['Content-Encoding'] = 'br';
    } else if (/\bgzip\b/.test(accepts) && existsSync(`${file}.gz`)) {
      body = `${file}.gz`;
      headers['Content-Encoding'] = 'gzip';
    }
    const bytes = readFileSync(body);
    headers['Content-Length'] = bytes.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  });
  return new Promise((ok) => server.listen(port, host, () => ok(server)));
}
