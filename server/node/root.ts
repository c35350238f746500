import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { type SecureHeadersVariables, secureHeaders } from 'hono/secure-headers';
import { SITE_EVENTS_PATH } from '../modules/statistics/routes';

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

import type { App } from '../app';
import type { Logger } from '../core/logger';
import { DEFAULT_SHED, type ShedLimits, shedPublicLoad } from './shed';
import { spaHandler } from './static';

const policy: SecureHeadersOptions = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    styleSrc: ["'self'", "'unsafe-inline'"], // MUI/emotion inject <style> at run time
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'], // images live on the image host (imgdomain)
    connectSrc: ["'self'", 'https:', 'http:'], // encrypted images are fetched, then decrypted
    mediaSrc: ["'self'", 'blob:', 'https:', 'http:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false, // served on plain http by default; a TLS proxy in front sets it
};

/** The pages and the API: same-origin resources. */
const pageHeaders = secureHeaders(policy);
/**
 * The image host (`/img`): one policy, cross-origin. The bytes are encrypted and public by design (the content
 * site, on another origin, fetches them too), so they are readable from anywhere: `Access-Control-Allow-Origin: *`
 * with `Cross-Origin-Resource-Policy: cross-origin`, not `same-origin`, which would contradict it.
 */
const imageHeaders = secureHeaders({ ...policy, crossOriginResourcePolicy: 'cross-origin' });

/** The Node server's one app: compression, request log, security headers, the API, the image host, the SPA. */
export function createRoot(api: App, clientRoot: string, logger: Logger, shed: ShedLimits = DEFAULT_SHED) {
  const root = new Hono<{ Variables: SecureHeadersVariables }>();
  // Before anything reads a body: a public request beyond the bounds is answered at once (shed.ts).
  root.use('/app/site/*', shedPublicLoad(shed));
  // The content site's event beacons answer a few dozen bytes many times a second: gzip would cost more than it saves
  // (and Hono's size threshold cannot see a JSON answer's length). Everything else is compressed.
  const compressing = compress();
  root.use((c, next) => (c.req.path === SITE_EVENTS_PATH ? next() : compressing(c, next)));
  root.use('/app/*', async (c, next) => {
    const t0 = performance.now();
    await next();
    logger.info(
      {
        requestId: c.res.headers.get('x-request-id'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - t0),
      },
      'request',
    );
  });
  root.use((c, next) => (c.req.path.startsWith('/img/') ? imageHeaders(c, next) : pageHeaders(c, next)));
  root.route('/', api);
  root.get('*', spaHandler(clientRoot));
  return root;
}
