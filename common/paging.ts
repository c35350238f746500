/** Page sizes a list accepts (the API refuses any other with 40000; the SPA offers these). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** The largest page: what a reader that walks every page (exports, pickers) asks for. */
export const MAX_PAGE_SIZE = 100;

/**
 * A list counts at most this many matches of a filter no kept count answers for: up to it the total is exact, beyond
 * it the answer is `total: COUNT_CAP, totalExact: false` and the screen reads "10,000+" (server/core/totals.ts).
 */
export const COUNT_CAP = 10_000;
