/**
 * The one HTTP client of the SPA (SPEC.md §7–8, DESIGN.md §2). Runs on the login page too: it imports neither
 * react-admin, MUI nor the big message bundles.
 */

import { Code, ERR_SESSION_INVALID } from '../../common/codes';
import { confirmLogout, navigate, toast } from './events';
import { getLocale } from './locale';
import { currentPath, LOGIN_PATH, loginPathFor } from './location';
import { httpMessage } from './messages';
import { withQuery } from './query';
import { clearToken, getToken } from './storage';

export const API_PREFIX = '/app';
export const SUCCESS_CODE: number = Code.OK;
/** Illegal token, session replaced, token expired: ask the operator to log in again. */
export const LOGOUT_CODES: readonly number[] = [
  Code.ILLEGAL_TOKEN,
  Code.SESSION_REPLACED,
  Code.TOKEN_EXPIRED,
];
/** Beside the code when the account behind the session was disabled or deleted. */
export const SESSION_INVALID_ERRCODE = ERR_SESSION_INVALID;
export const TOAST_DURATION = 5000;
/** The database is unreachable for a moment (HTTP 503): toasted in the UI's language, the operator retries. */
export const UNAVAILABLE_CODE = 50300;
/** Calls whose logout codes never prompt: the user-info call (SPEC.md §8), and login/logout themselves. */
const NO_LOGOUT_PROMPT = new Set(['admin/info', 'admin/login', 'admin/logout']);

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  errCode?: number;
}

/** An answer whose code is not 20000. `message` is the server's `msg` (or 'Error'). */
export class ApiFailure extends Error {
  readonly code: number;
  readonly msg: string;
  readonly data: unknown;
  readonly errCode?: number;
  /** react-admin's server-side validation shape: a 40000's `data.fields` shown beside each input. */
  readonly body?: { errors: Record<string, string> };

  constructor(envelope: Envelope) {
    super(envelope.msg || httpMessage('error'));
    this.name = 'ApiFailure';
    this.code = envelope.code;
    this.msg = envelope.msg;
    this.data = envelope.data;
    if (envelope.errCode !== undefined) this.errCode = envelope.errCode;
    const fields = (envelope.data as { fields?: unknown } | null)?.fields;
    if (fields && typeof fields === 'object') this.body = { errors: fields as Record<string, string> };
  }
}

export interface RequestOptions {
  method?: string;
  json?: unknown;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Do not toast failures (the caller reports them); the session rules (logout prompt, 2001) still apply. */
  quiet?: boolean;
  /** A multipart body (a file upload), sent as it is with the browser's multipart Content-Type; instead of `json`. */
  form?: FormData;
}

const isJsonType = (type: string) => /application\/json|\+json/i.test(type);
const isTextType = (type: string) => /^text\/|html/i.test(type);

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === wanted);
}

function isEnvelope(body: unknown): body is Envelope {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Envelope).code === 'number' &&
    ('msg' in body || 'data' in body)
  );
}

function toastError(message: string): void {
  toast({ type: 'error', message, duration: TOAST_DURATION });
}

function buildHeaders(own: Record<string, string> = {}, json = true): Record<string, string> {
  const headers: Record<string, string> = { ...own };
  if (json && !hasHeader(headers, 'Content-Type')) headers['Content-Type'] = 'application/json';
  if (!hasHeader(headers, 'Accept-Language')) headers['Accept-Language'] = getLocale();
  const token = getToken();
  if (token && !hasHeader(headers, 'Admin-Token')) headers['Admin-Token'] = token;
  return headers;
}

async function httpFailureMessage(res: Response): Promise<string> {
  try {
    if (isJsonType(res.headers.get('content-type') ?? '')) {
      const body: unknown = await res.clone().json();
      if (isEnvelope(body) && body.msg) return body.msg;
    }
  } catch {
    // the body is not what it says: fall back to the status line
  }
  return `${res.status} ${res.statusText}`.trim();
}

/** The envelope of a 50300 answer (database unavailable), whatever its HTTP status; undefined for anything else. */
async function unavailableEnvelope(res: Response): Promise<Envelope | undefined> {
  if (!isJsonType(res.headers.get('content-type') ?? '')) return undefined;
  try {
    const body: unknown = await res.clone().json();
    return isEnvelope(body) && body.code === UNAVAILABLE_CODE ? body : undefined;
  } catch {
    return undefined;
  }
}

/** Apply SPEC.md §8 to an envelope: resolve data on 20000, otherwise toast, prompt or redirect, and throw. */
function settle<T>(route: string, envelope: Envelope, quiet: boolean): T {
  if (envelope.code === SUCCESS_CODE) return envelope.data as T;
  const failure = new ApiFailure(envelope);
  if (!quiet) toastError(failure.message);
  if (envelope.errCode === SESSION_INVALID_ERRCODE) {
    clearToken();
    const here = currentPath();
    if (here.split('?')[0] !== LOGIN_PATH) navigate(loginPathFor(here));
  } else if (LOGOUT_CODES.includes(envelope.code) && !NO_LOGOUT_PROMPT.has(route)) {
    confirmLogout();
  }
  throw failure;
}

/** GET answers started ahead of the screen that asks for them (`prefetchGets`), by URL; each is used once. */
const early = new Map<string, Promise<Response>>();
let recording = false;
/** How long a prefetched answer waits for its screen: past that it is dropped (the screen asks again). */
const EARLY_MS = 10_000;

/**
 * Runs `run` (calls of the data provider, say) now, and keeps the answers of the GETs it sends so that the same GETs
 * sent soon after (the screen that needs them, mounting) are answered by them instead of asking again: the home
 * list right after the login, while the admin renders. Only requests sent synchronously by `run` are kept.
 */
export function prefetchGets(run: () => Promise<unknown>): void {
  recording = true;
  try {
    run().catch(() => {});
  } finally {
    recording = false;
  }
}

/**
 * Call `/app/<path>`. Resolves with the envelope's `data` when its code is 20000; rejects with an ApiFailure
 * for any other code, with the Response for a non-OK HTTP status, and with the fetch error for transport
 * failures. JSON answers that are not envelopes resolve as parsed; text/HTML as text; anything else as the
 * raw Response. No timeout.
 */
export async function request<T = unknown>(path: string, init: RequestOptions = {}): Promise<T> {
  const route = path.replace(/^\/+/, '').split('?')[0];
  const url = withQuery(`${API_PREFIX}/${path.replace(/^\/+/, '')}`, init.query);
  const quiet = init.quiet === true;
  const method = init.method ?? 'GET';
  let res: Response;
  try {
    let answer = method === 'GET' ? early.get(url) : undefined;
    if (answer) early.delete(url);
    else {
      answer = fetch(url, {
        method,
        headers: buildHeaders(init.headers, init.form === undefined),
        body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
        signal: init.signal,
      });
      if (recording && method === 'GET') {
        // a copy for the screen, taken before this call reads the body
        const copy = answer.then((r) => r.clone());
        copy.catch(() => {});
        early.set(url, copy);
        setTimeout(() => {
          if (early.get(url) === copy) early.delete(url);
        }, EARLY_MS);
      }
    }
    res = await answer;
  } catch (err) {
    const aborted = init.signal?.aborted || (err as { name?: string } | null)?.name === 'AbortError';
    if (!quiet && !aborted) toastError((err as Error | null)?.message || httpMessage('network'));
    throw err;
  }
  if (!res.ok) {
    const unavailable = await unavailableEnvelope(res);
    if (unavailable) {
      if (!quiet) toastError(httpMessage('unavailable'));
      throw new ApiFailure(unavailable);
    }
    if (!quiet) toastError(await httpFailureMessage(res));
    throw res;
  }
  const type = res.headers.get('content-type') ?? '';
  if (isTextType(type)) return (await res.text()) as T;
  if (!isJsonType(type)) return res as T;
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    if (!quiet) toastError((err as Error).message || httpMessage('error'));
    throw err;
  }
  return isEnvelope(body) ? settle<T>(route, body, quiet) : (body as T);
}
