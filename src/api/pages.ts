import { MAX_PAGE_SIZE } from '../../common/paging';

/** The API's largest page (common/paging.ts): anything that needs more rows walks the pages. */
export const MAX_PAGE = MAX_PAGE_SIZE;

/** One page as a reader answers it (react-admin's getList shape). */
export interface PageAnswer<T> {
  data: T[];
  total?: number;
  /** `totalExact: false`: the API counted only up to a cap, so `total` is a lower bound and cannot end the walk. */
  meta?: { totalExact?: boolean };
}

/**
 * The one page walker: reads `limit` rows (all by default) starting at row `from`, as consecutive pages of
 * `pageSize` (the API's largest), stopping at the end of the list (a short page, or an exact total reached).
 * `read(page, pageSize)` reads one page (1-based). Answers the rows and the list's total as last read.
 */
export async function walkPages<T>(
  read: (page: number, pageSize: number) => Promise<PageAnswer<T>>,
  { from = 0, limit = Number.POSITIVE_INFINITY, pageSize = MAX_PAGE } = {},
): Promise<{ rows: T[]; total: number }> {
  const rows: T[] = [];
  let total = 0;
  let skip = from % pageSize; // a start inside a page drops that page's head
  for (let page = Math.floor(from / pageSize) + 1; rows.length < limit; page++) {
    const answer = await read(page, pageSize);
    total = answer.total ?? total;
    rows.push(...answer.data.slice(skip));
    skip = 0;
    const exact = answer.meta?.totalExact !== false && answer.total !== undefined;
    if (answer.data.length < pageSize || (exact && page * pageSize >= total)) break;
  }
  return { rows: rows.slice(0, limit), total };
}
