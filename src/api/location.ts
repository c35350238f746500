/** The login route and the `redirect` query value that names where the operator was (SPEC.md §2, §4). */
export const LOGIN_PATH = '/login';

/** The current in-app path with its query: the hash route when the app uses one, else pathname + search. */
export function currentPath(): string {
  const { hash, pathname, search } = window.location;
  if (hash.startsWith('#/')) return hash.slice(1);
  return pathname + search;
}

/** `/login?redirect=<path>`; when already on the login page, that page's own address (keeps its redirect). */
export function loginPathFor(path: string = currentPath()): string {
  const bare = path.split('?')[0];
  if (bare === LOGIN_PATH) return path;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(path)}`;
}
