/**
 * The operator's session (SPEC.md §3–4): token and uid in localStorage, and the user store filled from
 * GET admin/info. Runs on the login page: no react-admin, no MUI.
 */
import { builtinPermissions } from '../auth/catalog';
import { clearImageCipher } from '../images/cipher';
import { reload } from './events';
import { request } from './http';
import { clearSession, clearToken, getToken, getUid, storeSession } from './storage';
import { createStore } from './store';

export { getToken, TOKEN_KEY, UID_KEY } from './storage';

/** The built-in roles an operator who manages operators may view the UI as (`switchRole`). */
export type Role = 'user' | 'admin';
export const ROLES: readonly Role[] = ['user', 'admin'];
/** Who may view the UI as the built-in `user`: an operator who manages operators and their roles. */
const VIEW_AS_PERMISSION = 'operators.settings';

export interface User {
  uid: number | string;
  avatar: string;
  nickname: string;
  account: string;
  /** The role's name the UI shows (an admin may view as 'user'); a custom role's name as it is. */
  role: string;
  /** The role the server gave; the server enforces this one whatever `role` says. */
  realRole: string;
  /** What the UI lets the operator do (`<section>.<action>`): the menu, guards, read-only screens. */
  permissions: readonly string[];
  /** What the server's role holds; the server enforces these whatever `permissions` says. */
  realPermissions: readonly string[];
}

export interface LoginResult {
  token: string;
  id: number | string;
}

/** A neutral head-and-shoulders avatar, used when the operator has none (SPEC.md §3). */
export const DEFAULT_AVATAR =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#c9d3e0"/>' +
      '<circle cx="32" cy="25" r="12" fill="#f4f6f9"/><path d="M10 60c2-13 11-20 22-20s20 7 22 20z" fill="#f4f6f9"/></svg>',
  );

const userStore = createStore<User | null>(null);
const setUser = userStore.set;
let pending: Promise<User> | null = null;

export function getUser(): User | null {
  return userStore.get();
}

/** The current operator, re-rendering when the store changes. */
export function useUser(): User | null {
  return userStore.use();
}

/** Empty the user store (logout, a new login). */
export function clearUser(): void {
  pending = null;
  setUser(null);
}

/** POST admin/login; stores token and uid. A failure clears the token and rethrows (`quiet`: the caller shows it). */
export async function login(
  username: string,
  password: string,
  options: { quiet?: boolean } = {},
): Promise<LoginResult> {
  try {
    const result = await request<LoginResult>('admin/login', {
      method: 'POST',
      json: { username, password },
      quiet: options.quiet,
    });
    storeSession(result.token, result.id);
    clearUser();
    return result;
  } catch (err) {
    clearToken();
    throw err;
  }
}

/** POST admin/logout (best effort, silent, only with a token), then forget token, uid and the user store. */
export async function logout(): Promise<void> {
  try {
    if (getToken()) await request('admin/logout', { method: 'POST', quiet: true });
  } catch {
    // the session may already be gone on the server; logging out locally is what matters
  } finally {
    clearSession();
    clearUser();
    clearImageCipher();
  }
}

/** 'Re-Login' of the 'Confirm logout' dialog: log out, then reload (the guard then shows the login page). */
export async function relogin(): Promise<void> {
  await logout();
  reload();
}

interface InfoAnswer {
  uid: number | string;
  avatar?: string | null;
  nickname?: string | null;
  account?: string | null;
  role?: string | null;
  permissions?: string[] | null;
}

/** GET admin/info?id=<uid>, only when the store holds no uid yet; concurrent callers share one request. */
export function loadUser(): Promise<User> {
  const user = getUser();
  if (user && user.uid !== undefined && user.uid !== '') return Promise.resolve(user);
  if (pending) return pending;
  const call = request<InfoAnswer>('admin/info', { query: { id: getUid() } })
    .then((info) => {
      const role = typeof info.role === 'string' ? info.role : '';
      const permissions = Array.isArray(info.permissions) ? info.permissions : builtinPermissions(role);
      const next: User = {
        uid: info.uid,
        avatar: info.avatar || DEFAULT_AVATAR,
        nickname: info.nickname ?? '',
        account: info.account ?? '',
        role,
        realRole: role,
        permissions,
        realPermissions: permissions,
      };
      if (pending === call) setUser(next);
      return next;
    })
    .finally(() => {
      if (pending === call) pending = null;
    });
  pending = call;
  return call;
}

/** Whether the operator may view the UI as the built-in `user` (`switchRole`). */
export const canViewAsUser = (user: User | null | undefined): boolean =>
  !!user?.realPermissions.includes(VIEW_AS_PERMISSION);

/**
 * View the UI as the built-in `user`, or back as oneself (`admin`). Only an operator who manages operators may;
 * returns whether the switch happened. The server keeps enforcing the real role.
 */
export function switchRole(role: Role): boolean {
  const user = getUser();
  if (!canViewAsUser(user) || !ROLES.includes(role) || !user) return false;
  const next =
    role === 'user'
      ? { role: 'user', permissions: builtinPermissions('user') }
      : { role: user.realRole, permissions: user.realPermissions };
  if (user.role !== next.role) setUser({ ...user, ...next });
  return true;
}
