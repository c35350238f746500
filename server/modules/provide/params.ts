/**
 * The provide API's query as MacCMS collectors send it (`ac`, `t`, `pg`, `wd`, `h`, `ids`, `at`, `pagesize`, `key`).
 * Every value comes from another site and is bounded here; a bad one is refused naming the parameter, never guessed.
 */

export type Action = 'list' | 'videolist' | 'detail';

export interface ProvideQuery {
  ac: Action;
  /** A column id (MacCMS's type). */
  t?: number;
  pg: number;
  wd?: string;
  /** Changed within the last h hours. */
  h?: number;
  ids?: number[];
  xml: boolean;
  pageSize: number;
  key: string;
}

/** MacCMS's default page size, and the most it serves on one page (Provide.php caps `pagesize` at 100). */
export const PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** `ids` of one request: a detail fetch names one page of a list, so a page's worth is plenty. */
export const MAX_IDS = 100;
export const MAX_PAGE = 1_000_000;
/** Ten years of hours: a collector's "everything changed since" stays a date, not an overflow. */
export const MAX_HOURS = 87_600;
export const MAX_SEARCH = 64;

export type ParamProblem =
  | { param: string; key: 'provide.int'; min: number; max: number }
  | { param: string; key: 'provide.enum'; values: string }
  | { param: 'ids'; key: 'provide.ids'; max: number }
  | { param: string; key: 'provide.tooLong'; max: number };

const INT = /^\d{1,9}$/;

/** The query, or the first parameter that is wrong. Empty values count as absent, as in MacCMS. */
export function parseProvideQuery(q: Record<string, string | undefined>): ProvideQuery | ParamProblem {
  const get = (k: string) => {
    const v = q[k]?.trim();
    return v ? v : undefined;
  };
  const int = (param: string, min: number, max: number): number | ParamProblem | undefined => {
    const v = get(param);
    if (v === undefined) return undefined;
    const n = INT.test(v) ? Number(v) : Number.NaN;
    return n >= min && n <= max ? n : { param, key: 'provide.int', min, max };
  };
  const ac = get('ac') ?? 'list';
  if (ac !== 'list' && ac !== 'videolist' && ac !== 'detail')
    return { param: 'ac', key: 'provide.enum', values: 'list, videolist, detail' };
  const at = get('at') ?? 'json';
  if (at !== 'json' && at !== 'xml') return { param: 'at', key: 'provide.enum', values: 'json, xml' };
  const t = int('t', 1, 2_147_483_647);
  if (typeof t === 'object') return t;
  const pg = int('pg', 1, MAX_PAGE);
  if (typeof pg === 'object') return pg;
  const h = int('h', 1, MAX_HOURS);
  if (typeof h === 'object') return h;
  // MacCMS reads `pagesize`; some collectors send `limit`.
  const size = int(get('pagesize') !== undefined ? 'pagesize' : 'limit', 1, MAX_PAGE_SIZE);
  if (typeof size === 'object') return size;
  const wd = get('wd');
  if (wd !== undefined && [...wd].length > MAX_SEARCH)
    return { param: 'wd', key: 'provide.tooLong', max: MAX_SEARCH };
  let ids: number[] | undefined;
  const rawIds = get('ids');
  if (rawIds !== undefined) {
    const parts = rawIds.length <= MAX_IDS * 11 ? rawIds.split(',') : [];
    if (!parts.length || parts.length > MAX_IDS || !parts.every((p) => INT.test(p.trim()) && Number(p) > 0))
      return { param: 'ids', key: 'provide.ids', max: MAX_IDS };
    ids = [...new Set(parts.map(Number))];
  }
  const key = q.key ?? '';
  return { ac, t, pg: pg ?? 1, wd, h, ids, xml: at === 'xml', pageSize: size ?? PAGE_SIZE, key };
}
