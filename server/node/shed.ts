import type { MiddlewareHandler } from 'hono';
import { Code } from '../../common/codes';
import { pickLocale, translate } from '../core/i18n';

/** How much public traffic one server takes at once before it answers "busy". */
export interface ShedLimits {
  /** Public requests (`/app/site/*`) being served at once. */
  inFlight: number;
  /** Bytes of their bodies being read at once (declared by Content-Length; a body without one counts as `chunkedBytes`). */
  bytes: number;
  /** What a body without a Content-Length is counted as. */
  chunkedBytes: number;
}

export const DEFAULT_SHED: ShedLimits = { inFlight: 64, bytes: 64 * 1024 * 1024, chunkedBytes: 1024 * 1024 };
/** How long a shed request's body is read (and thrown away) before its answer, at most. */
const DISCARD_MS = 10_000;

/**
 * Reads a body chunk by chunk and throws it away, for at most `ms`: an answer sent while the client is still sending
 * was met with a reset connection (the client never read it), so a shed request's body is read to its end first —
 * never kept, never parsed, no database work — and a client that sends too slowly is answered anyway.
 */
async function discard(body: ReadableStream<Uint8Array>, ms: number) {
  const reader = body.getReader();
  const until = Date.now() + ms;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'late'>((r) => {
    timer = setTimeout(() => r('late'), ms);
  });
  try {
    while (Date.now() < until) {
      const step = await Promise.race([reader.read(), timeout]);
      if (step === 'late' || step.done) break;
    }
  } catch {
    // the client went away: nobody to answer
  } finally {
    clearTimeout(timer);
    reader.releaseLock?.();
  }
}

/** Seconds a shed client is asked to wait. */
export const SHED_RETRY_AFTER = 2;

/**
 * Sheds public load early: beyond `inFlight` requests or `bytes` of bodies being read, a public request is answered
 * 503 with `Retry-After` without its body ever being kept or parsed (it is read and thrown away chunk by chunk, see
 * `discard`), so memory stays bounded however many clients send large batches at once, and no request waits for a
 * database connection it will not get.
 */
export function shedPublicLoad(limits: ShedLimits = DEFAULT_SHED): MiddlewareHandler {
  let inFlight = 0;
  let bytes = 0;
  return async (c, next) => {
    const declared = Number(c.req.header('content-length'));
    const size = c.req.raw.body
      ? Number.isFinite(declared) && declared >= 0
        ? declared
        : limits.chunkedBytes
      : 0;
    if (inFlight + 1 > limits.inFlight || (inFlight > 0 && bytes + size > limits.bytes)) {
      c.header('Retry-After', String(SHED_RETRY_AFTER));
      c.header('Cache-Control', 'no-store');
      if (c.req.raw.body) await discard(c.req.raw.body, DISCARD_MS);
      const locale = pickLocale(c.req.header('accept-language'));
      return c.json({ code: Code.UNAVAILABLE, msg: translate(locale, 'busy'), data: null }, 503);
    }
    inFlight++;
    bytes += size;
    try {
      await next();
    } finally {
      inFlight--;
      bytes -= size;
    }
  };
}

/**
 * The Node listener's options. @hono/node-server would drain a body left unread for at most 500 ms after the answer
 * and then destroy the socket: a client still sending a large body (a shed one, or one refused by its key) got a reset
 * instead of the answer already on its way. Without that, Node itself reads an unread body to its end and discards
 * it after the answer (memory: one chunk at a time), and the connection stays usable.
 */
export const SERVE_OPTIONS = { autoCleanupIncoming: false } as const;
