import { sqlStateOf } from './sql-state';

/**
 * Errors that mean "the database cannot be reached right now", not "this request is wrong" nor "a bug": the
 * server is restarting or down, the connection was cut. Either driver's error, possibly wrapped by Drizzle in
 * `cause`. The app answers them with 50300 (HTTP 503) instead of 50000.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: terminating connection due to administrator command
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / shutting down
  '53300', // too_many_connections
]);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // node-postgres: the socket closed under a query
  /not queryable/, // node-postgres: a client whose connection already failed
  /timeout exceeded when trying to connect/, // pg-pool: connectionTimeoutMillis
  /^Connection terminated due to connection timeout/,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  const state = sqlStateOf(err);
  // class 08: connection exception, but for a protocol violation: the server refused what this process sent (a bind
  // message past 65,535 parameters), which the same statement sent again is refused for again.
  if (state && ((state.startsWith('08') && state !== '08P01') || UNAVAILABLE_SQLSTATES.has(state)))
    return true;
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++) {
    if (typeof e.code === 'string' && UNAVAILABLE_NODE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/**
 * Errors that the same work done again may well not meet: the database unreachable (above), a serialization failure,
 * a deadlock, a lock wait given up (`lock_timeout`). Anything else (a bug, a constraint, a statement the server
 * refuses) fails the same way on every retry, and whoever retries in a loop must stop and say so.
 */
const PASSING_SQLSTATES = new Set(['40001', '40P01', '55P03']);
export const isPassing = (err: unknown): boolean =>
  isDatabaseUnavailable(err) || PASSING_SQLSTATES.has(sqlStateOf(err) ?? '');

/** The innermost message of an error wrapped in `cause` (Drizzle puts the whole statement in its own), bounded. */
export function rootMessage(err: unknown, max = 500): string {
  let message = '';
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++)
    if (typeof e.message === 'string' && e.message) message = e.message;
  if (!message) message = String(err);
  return message.length > max ? `${message.slice(0, max - 1)}…` : message;
}
