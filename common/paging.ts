/** Page sizes a list accepts (the API refuses any other with 40000; the SPA offers these). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** The largest page: what a reader that walks every page (exports, pickers) asks for. */
export const MAX_PAGE_SIZE = 100;
