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
  // class 08: connection exception
  if (state && (state.startsWith('08') || UNAVAILABLE_SQLSTATES.has(state))) return true;
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++) {
    if (typeof e.code === 'string' && UNAVAILABLE_NODE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
