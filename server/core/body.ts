import { createMiddleware } from 'hono/factory';
import { Code } from '../../common/codes';
import type { AppContext, AppEnv } from './context';
import { ApiError } from './errors';
import { checkJsonValue } from './input-guard';

/**
 * Request bodies are read lazily and within a limit (issue #11). The app-wide `bodyGuard` reads nothing itself: it
 * puts a lazy reader in place of the body, so the body is read only when a route reads it — after the route's own
 * middleware, which authenticates first. A request without a valid token is answered before one byte of its body
 * is read. When the body is read, a `Content-Length` over the limit is refused before reading, and a body without
 * one is counted while it streams in and refused as soon as it passes the limit. The refused request is answered
 * with `Connection: close`, so the unread rest of it never reaches the next request on the connection.
 *
 * The limit is the app's (BODY_LIMIT_KB) unless a route declares its own with `ownBodyLimit` (the image upload, the
 * novel import), so the app never needs to know which routes those are.
 *
 * A JSON body is also decoded strictly: invalid UTF-8 is refused with 40000 rather than stored as U+FFFD, and the
 * parsed value passes `checkJsonValue` (no U+0000, no lone surrogate, no hostile nesting).
 */
export interface BodyLimit {
  maxBytes: number;
  refuse: () => ApiError;
}

const jsonType = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The route's own limit, instead of the app's: put it in the route's `middleware`, after its guards. */
export const ownBodyLimit = (limit: (c: AppContext) => BodyLimit) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('bodyLimit', limit(c));
    await next();
  });

export const bodyGuard = (appLimit: (c: AppContext) => BodyLimit) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('bodyLimit', appLimit(c));
    let read = false;
    if (c.req.raw.body) {
      // Every body getter of HonoRequest (json, text, formData, arrayBuffer, the validators) derives from the
      // first cached body: this one, which starts reading only when awaited.
      const body = lazy(async () => {
        const bytes = await readWithinLimit(c);
        read = true;
        return bytes;
      });
      (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = lazy(
        async () => (await body).bytes,
      );
      // A JSON body was parsed once to be checked: the route's json() (its validator's) gets that value rather than
      // decoding and parsing the bytes again (a tenth of the event ingestion's time). Text that is not JSON is
      // parsed as HonoRequest would, for its own error.
      Object.defineProperty(c.req, 'json', {
        value: () =>
          body.then((b) => (b.json === NOT_JSON ? JSON.parse(new TextDecoder().decode(b.bytes)) : b.json)),
      });
    }
    await next();
    // A body left unread (refused, or answered before it was needed): close rather than read it to its end.
    if (c.req.raw.body && !read) c.header('Connection', 'close');
  });

/** Why this request's body was refused (the app's error handler answers this rather than what followed it). */
export function refuseBody(c: AppContext, err: ApiError): ApiError {
  c.set('bodyRefusal', err);
  return err;
}

/** No checked JSON value: the body is not JSON (by its type or its text). */
const NOT_JSON = Symbol('not JSON');

async function readWithinLimit(c: AppContext): Promise<{ bytes: ArrayBuffer; json: unknown }> {
  const { maxBytes, refuse } = c.get('bodyLimit');
  const length = c.req.header('content-length');
  if (length !== undefined && !c.req.header('transfer-encoding') && Number(length) > maxBytes)
    throw refuseBody(c, refuse());
  const reader = c.req.raw.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw refuseBody(c, refuse());
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  const json = jsonType.test(c.req.header('content-type') ?? '') ? checkJsonBytes(c, bytes) : NOT_JSON;
  return { bytes: bytes.buffer, json };
}

/** The body's value once checked, or NOT_JSON when its text does not parse. */
function checkJsonBytes(c: AppContext, bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw refuseBody(c, new ApiError(Code.INVALID, 'invalid.encoding'));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_JSON; // not JSON: the route's validator answers 40000 itself
  }
  try {
    // U+0000 and lone surrogates come only from `\u` escapes: raw, the first is not JSON and the second not UTF-8.
    checkJsonValue(value, { strings: text.includes('\\u') });
  } catch (err) {
    if (err instanceof ApiError) throw refuseBody(c, err);
    throw err;
  }
  return value;
}

/** A promise whose work starts at the first `then`: nothing is read unless someone asks for the body. */
function lazy<T>(start: () => Promise<T>): Promise<T> {
  let started: Promise<T> | undefined;
  const run = () => {
    started ??= start();
    return started;
  };
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose
    then: (onOk, onErr) => run().then(onOk, onErr),
    catch: (onErr) => run().catch(onErr),
    finally: (f) => run().finally(f),
    [Symbol.toStringTag]: 'Promise',
  } as Promise<T>;
}
