/**
 * The SQLSTATE of a database error, whichever driver raised it (pg or PGlite) and however Drizzle wrapped it in
 * `cause`; undefined when the error carries none. Every check of a database error code goes through here.
 */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++)
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
}
