/**
 * The guard's decisions as plain functions, with no imports: the entry (src/main.tsx) uses them before any
 * of the admin is loaded.
 */
import type { Need } from './types';

/** Where a logged-in operator lands (SPEC.md §4). */
export const HOME_PATH = '/movie/review';
export const LOGIN_PATH = '/login';

/** Issue #52: a route that needs no permission admits any logged-in operator; else their role must hold it. */
export function canAccess(
  need: Need | undefined,
  permissions: readonly string[] | null | undefined,
): boolean {
  if (!need) return true;
  return !!permissions && permissions.includes(need);
}

/** Only a same-origin path may be a redirect target: anything else goes home. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return HOME_PATH;
  if (value === LOGIN_PATH || value.startsWith(`${LOGIN_PATH}?`) || value === '/') return HOME_PATH;
  return value;
}

/**
 * The guard of SPEC.md §4 as a decision: not logged in and not on login → login with a redirect naming the target;
 * logged in and on login (or on `/`) → the redirect target or home; otherwise stay (null).
 */
export function guardTarget(pathname: string, search: string, loggedIn: boolean): string | null {
  const onLogin = pathname === LOGIN_PATH;
  if (!loggedIn) {
    if (onLogin) return null;
    if (pathname === '/') return LOGIN_PATH;
    return `${LOGIN_PATH}?redirect=${encodeURIComponent(pathname + search)}`;
  }
  if (onLogin) return safeRedirect(new URLSearchParams(search).get('redirect'));
  if (pathname === '/') return HOME_PATH;
  return null;
}
