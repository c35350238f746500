import { createMiddleware } from 'hono/factory';
import { Code } from '../../common/codes';
import { joinBytes } from './bytes';
import type { AppContext, AppEnv, BodyLimit } from './context';
import { ApiError } from './errors';
import { checkJsonValue } from './input-guard';

/**
 * Request bodies are read lazily and within a limit. The app-wide `bodyGuard` reads nothing itself: it
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

/**
 * The bytes of a body of several chunks, joined to be decoded, in one buffer kept from body to body (the decoding is
 * synchronous: never two at once): a new buffer past 128 KB is memory the system maps afresh and faults in page by
 * page, where copying into a buffer already in use is nearly free.
 * The body's own bytes are joined into a buffer of their own only when a route asks for them.
 */
let scratch = new Uint8Array(0);
const MAX_SCRATCH = 8 * 1024 * 1024;

/** The chunks as one run of bytes to decode: the one chunk itself, or a copy in `scratch` (valid until the next). */
function decodable(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  if (size > MAX_SCRATCH) return joinBytes(chunks);
  if (scratch.length < size)
    scratch = new Uint8Array(Math.min(MAX_SCRATCH, Math.max(size, 2 * scratch.length)));
  return joinBytes(chunks, scratch);
}

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
  const json = jsonType.test(c.req.header('content-type') ?? '')
    ? checkJsonBytes(c, decodable(chunks, size))
    : NOT_JSON;
  let bytes: ArrayBuffer | undefined;
  return {
    get bytes() {
      bytes ??= joinBytes(chunks).buffer as ArrayBuffer;
      return bytes;
    },
    json,
  };
}

/** The body's value once checked, or NOT_JSON when its text does not parse. */
function checkJsonBytes(c: AppContext, bytes: Uint8Array): unknown {
  let parsed = jsonInPieces(bytes);
  if (!parsed) {
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      throw refuseBody(c, new ApiError(Code.INVALID, 'invalid.encoding'));
    }
    try {
      parsed = { value: JSON.parse(text), escapes: text.includes('\\u'), pieces: 1 };
    } catch {
      return NOT_JSON; // not JSON: the route's validator answers 40000 itself
    }
  }
  const { value, escapes } = parsed;
  try {
    // U+0000 and lone surrogates come only from `\u` escapes: raw, the first is not JSON and the second not UTF-8.
    checkJsonValue(value, { strings: escapes });
  } catch (err) {
    if (err instanceof ApiError) throw refuseBody(c, err);
    throw err;
  }
  return value;
}

/** The most bytes of a body decoded and parsed as one piece by `jsonInPieces`. */
const PIECE_BYTES = 64 * 1024;
/** A piece's decoder: a U+FEFF at a piece's start is a character of the body, not a byte order mark to drop. */
const pieceUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NAME_BYTE = /^[A-Za-z0-9_]$/;

/**
 * A body of one list under one name (`{"events":[{…},{…},…]}`, as a client's JSON.stringify writes it) past
 * `pieceBytes`, decoded and parsed in pieces of at most that size cut between two items (`},{`), and the list put
 * back together: the same value as the whole body's, and whether its text has a `\u` escape. Undefined for any other
 * body, or when a piece does not decode or parse (then the whole body is decoded and parsed, for its own answer).
 *
 * Why: a string past 128 KB is a large object of the JavaScript heap, made on fresh pages, each faulted in: the
 * event ingestion's batch of 500 events (about 170 KB) decoded whole cost many times what it costs in pieces of a
 * few KB, a visible share of the server's work per event.
 *
 * Never a different value: a cut that is not between two items of the list (inside a string, or between two items of
 * a list deeper down) leaves the piece before it with a string, object or list unclosed, which does not parse (then
 * the whole body is parsed: a site's strings hold no `},{`). Cuts fall on ASCII bytes, so the pieces decode strictly
 * exactly when the whole body does.
 */
export function jsonInPieces(
  bytes: Uint8Array,
  pieceBytes = PIECE_BYTES,
): { value: unknown; escapes: boolean; pieces: number } | undefined {
  if (bytes.length <= pieceBytes || bytes[0] !== 0x7b || bytes[1] !== 0x22) return; // {"
  let i = 2;
  while (i < 66 && NAME_BYTE.test(String.fromCharCode(bytes[i]))) i++;
  if (i === 2 || bytes[i] !== 0x22 || bytes[i + 1] !== 0x3a || bytes[i + 2] !== 0x5b) return; // ":[
  const name = String.fromCharCode(...bytes.subarray(2, i));
  let end = bytes.length;
  while (end > i && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
  if (bytes[end - 1] !== 0x7d || bytes[end - 2] !== 0x5d) return; // ]}
  end -= 2;
  const list: unknown[] = [];
  let escapes = false;
  let pieces = 0;
  try {
    for (let from = i + 3; from < end; ) {
      // The last `},{` that keeps the piece within PIECE_BYTES; none: the rest is one piece.
      let cut = end;
      if (end - from > pieceBytes)
        for (let k = from + pieceBytes - 1; k > from; k--)
          if (bytes[k] === 0x7d && bytes[k + 1] === 0x2c && bytes[k + 2] === 0x7b) {
            cut = k + 1;
            break;
          }
      const text = pieceUtf8.decode(bytes.subarray(from, cut));
      if (!escapes && text.includes('\\u')) escapes = true;
      for (const item of JSON.parse(`[${text}]`) as unknown[]) list.push(item);
      pieces++;
      from = cut + 1; // past the comma
    }
  } catch {
    return undefined;
  }
  return { value: { [name]: list }, escapes, pieces };
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
