/** Envelope codes of DESIGN.md §5. Every `/app` answer carries one of these (the API sends them, the SPA reads them). */
export const Code = {
  OK: 20000,
  INVALID: 40000,
  BAD_CREDENTIALS: 40100,
  FORBIDDEN: 40300,
  NOT_FOUND: 40400,
  CONFLICT: 40900,
  TOO_MANY: 42900,
  /**
   * Statistics days whose rollup failed for a reason retrying will not fix (not "database unavailable"): the other
   * days were rolled up; the stuck ones are listed with their error on the statistics settings screen.
   */
  ROLLUP_STUCK: 42200,
  SERVER: 50000,
  /** The database cannot be reached right now (restarting, down): nothing was done; retry later. HTTP 503. */
  UNAVAILABLE: 50300,
  ILLEGAL_TOKEN: 50008,
  SESSION_REPLACED: 50012,
  TOKEN_EXPIRED: 50014,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** Set beside the code when the account behind a session was disabled or deleted (SPEC.md §7). */
export const ERR_SESSION_INVALID = 2001;

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  errCode?: number;
  requestId?: string;
}
