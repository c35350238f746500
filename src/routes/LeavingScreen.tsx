import { type ReactNode, useContext, useMemo, useRef } from 'react';
import { UNSAFE_NavigationContext as NavigationContext, type To, useLocation } from 'react-router-dom';

const pathnameOf = (to: To) =>
  typeof to === 'string'
    ? new URL(to, window.location.href).pathname
    : (to.pathname ?? window.location.pathname);

/**
 * A screen the operator is leaving may not pull them back to itself.
 *
 * Router updates run in a transition: after a click on a row, the list stays on screen (with the progress bar)
 * until the next screen's code has loaded. A list still rewrites its own URL meanwhile — react-admin applies a
 * search typed half a second earlier (`navigate({ search })`, relative to the list) — and that navigation won
 * over the operator's: type in the search box, click a row, land back on the list (the actress journey's
 * failure in CI). Under this wrapper, once the address bar has moved to another page, the screen's navigations
 * to its own page are dropped; navigations elsewhere (a link clicked on the old screen) still go through.
 */
export function LeavingScreen({ children }: { children: ReactNode }) {
  const context = useContext(NavigationContext);
  const shown = useRef('');
  // The router's location, which stays on this screen during a transition; `window.location` has moved on.
  shown.current = useLocation().pathname;
  const value = useMemo(() => {
    const { navigator } = context;
    const stale = (to: To) => window.location.pathname !== shown.current && pathnameOf(to) === shown.current;
    return {
      ...context,
      navigator: {
        ...navigator,
        push: (to: To, state?: unknown, opts?: unknown) => {
          if (!stale(to)) (navigator.push as (...a: unknown[]) => void)(to, state, opts);
        },
        replace: (to: To, state?: unknown, opts?: unknown) => {
          if (!stale(to)) (navigator.replace as (...a: unknown[]) => void)(to, state, opts);
        },
      },
    };
  }, [context]);
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}
