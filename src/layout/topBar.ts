/**
 * The CSS variable holding the fixed top bar's height, set by the layout (0 when the bar is hidden): what sticks to
 * the top of the page (a list's header) sticks under the bar, not behind it.
 */
export const TOP_BAR_VAR = '--zg-top-bar';
