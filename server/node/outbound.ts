import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { allowListed, internalHostname, parseIP, refusedAddressBytes } from '../../common/hosts';
import type { OutboundAnswer, OutboundOptions, OutboundReason } from '../core/outbound';

/**
 * The one door out: every server-side fetch (domain health checks, collection) goes through
 * `guardedFetch`, so that an operator who stores a URL cannot make the server call into its own network. The
 * address is checked where the socket gets it (a `lookup` of our own on the request), so the address checked is the
 * address connected to: a DNS answer that changes between a check and the connect (rebinding) has nothing to slip
 * through. Redirects are followed by hand, each hop checked again.
 */

export type { OutboundAnswer, OutboundOptions };

export class OutboundRefused extends Error {
  constructor(
    public reason: OutboundReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** How a name becomes addresses (DNS by default; tests answer with addresses of their choosing). */
export type OutboundResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const dnsResolve: OutboundResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const DEFAULT_REDIRECTS = 5;
const MAX_URL = 4096;

/** A guarded fetch resolving names with `resolve` (the default `guardedFetch` uses the system's DNS). */
export function createGuardedFetch(deps: { resolve?: OutboundResolver } = {}) {
  const resolve = deps.resolve ?? dnsResolve;
  return async function guardedFetch(url: string, options: OutboundOptions): Promise<OutboundAnswer> {
    const started = performance.now();
    const allow = options.allowHosts ?? [];
    const maxRedirects = options.maxRedirects ?? DEFAULT_REDIRECTS;
    let method = options.method ?? 'GET';
    let current = url;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), Math.max(1, options.timeoutMs));
    try {
      for (let hop = 0; ; hop++) {
        const target = checkUrl(current, allow);
        const res = await send(target, method, options, allow, resolve, deadline.signal);
        const location = res.headers.location;
        if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
          res.destroy();
          if (hop >= maxRedirects)
            throw new OutboundRefused('redirects', `more than ${maxRedirects} redirects`);
          current = new URL(location, target).toString();
          if (res.statusCode === 303) method = 'GET';
          continue;
        }
        if (method === 'HEAD') res.resume();
        const body =
          method === 'HEAD' ? new Uint8Array() : await readCapped(res, options.maxBytes, deadline.signal);
        return {
          status: res.statusCode ?? 0,
          headers: toHeaders(res),
          body,
          url: target.toString(),
          ms: Math.round(performance.now() - started),
        };
      }
    } catch (err) {
      if (err instanceof OutboundRefused) throw err;
      if (deadline.signal.aborted)
        throw new OutboundRefused('timeout', `no answer within ${options.timeoutMs} ms`);
      const e = err as NodeJS.ErrnoException;
      throw new OutboundRefused('network', e.code ?? e.message);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The guard with the system's DNS. */
export const guardedFetch = createGuardedFetch();

/** The URL parsed and its scheme and host checked before any DNS: http(s) only, no inside name or address. */
function checkUrl(url: string, allow: readonly string[]): URL {
  if (url.length > MAX_URL) throw new OutboundRefused('scheme', 'URL too long');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OutboundRefused('scheme', 'not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new OutboundRefused('scheme', `${u.protocol} is not http(s)`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (internalHostname(host) && !allowListed(host, allow))
    throw new OutboundRefused('address', `${host} is an internal address`);
  return u;
}

/**
 * The socket's own lookup: resolves the name, refuses it when any address it answers is inside (unless allowed) and
 * hands the socket exactly the addresses checked.
 */
function guardedLookup(resolve: OutboundResolver, allow: readonly string[]): LookupFunction {
  return (hostname, opts, callback) => {
    const done = callback as (err: Error | null, address: any, family?: number) => void;
    resolve(hostname).then(
      (found) => {
        if (!found.length) return done(new OutboundRefused('dns', `${hostname}: no address`), '');
        const nameAllowed = allowListed(hostname, allow);
        for (const a of found) {
          const bytes = parseIP(a.address);
          if (!bytes || (refusedAddressBytes(bytes) && !nameAllowed && !allowListed(a.address, allow)))
            return done(new OutboundRefused('address', `${hostname} resolves to an internal address`), '');
        }
        const wanted =
          opts.family === 4 || opts.family === 6 ? found.filter((a) => a.family === opts.family) : found;
        const list = (wanted.length ? wanted : found).map((a) => ({ address: a.address, family: a.family }));
        if (opts.all) done(null, list);
        else done(null, list[0].address, list[0].family);
      },
      (err: NodeJS.ErrnoException) =>
        done(new OutboundRefused('dns', `${hostname}: ${err.code ?? err.message}`), ''),
    );
  };
}

function send(
  u: URL,
  method: 'GET' | 'HEAD',
  options: OutboundOptions,
  allow: readonly string[],
  resolve: OutboundResolver,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const opts: RequestOptions = {
    method,
    signal,
    agent: false, // no pooled socket: each connection goes through the lookup above
    lookup: guardedLookup(resolve, allow),
    headers: { 'user-agent': 'Zhanggui', accept: '*/*', ...options.headers, 'accept-encoding': 'identity' },
  };
  return new Promise((ok, fail) => {
    const req = request(u, opts, ok);
    req.on('error', (err) => fail(err instanceof OutboundRefused ? err : (err.cause ?? err)));
    req.end();
  });
}

/** The body, refused as soon as it grows past `maxBytes` (announced or streamed). */
function readCapped(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const announced = Number(res.headers['content-length']);
  if (Number.isFinite(announced) && announced > maxBytes) {
    res.destroy();
    return Promise.reject(new OutboundRefused('size', `answer over ${maxBytes} bytes`));
  }
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => res.destroy(new Error('timeout'));
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        fail(new OutboundRefused('size', `answer over ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      ok(new Uint8Array(Buffer.concat(chunks)));
    });
    res.on('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      fail(err);
    });
    res.on('close', () => {
      if (!res.complete) fail(signal.aborted ? new Error('timeout') : new Error('connection closed'));
    });
  });
}

function toHeaders(res: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return h;
}
