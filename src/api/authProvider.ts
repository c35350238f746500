/** react-admin's AuthProvider over the session (SPEC.md §4). The HTTP client already handled the codes. */
import type { AuthProvider, UserIdentity } from 'ra-core';
import { SESSION_INVALID_ERRCODE } from './http';
import { loginPathFor } from './location';
import { getToken, getUser, loadUser, login, logout } from './session';

const hasSessionInvalid = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { errCode?: unknown }).errCode === SESSION_INVALID_ERRCODE;

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    await login(username, password);
  },

  /** Forget the session; react-admin then goes to the login page with a redirect naming where we were. */
  async logout() {
    await logout();
    return loginPathFor();
  },

  async checkAuth() {
    if (!getToken()) throw { redirectTo: loginPathFor(), message: false };
  },

  /** Only errors already carrying errCode 2001 end the session; every other code was handled by the client. */
  async checkError(error: unknown) {
    if (hasSessionInvalid(error)) throw { redirectTo: loginPathFor(), message: false };
  },

  async getIdentity(): Promise<UserIdentity> {
    const user = await loadUser();
    return { ...user, id: user.uid, fullName: user.nickname || user.account, avatar: user.avatar };
  },

  /** The permissions the UI follows (possibly viewing as `user`); none without a session. */
  async getPermissions() {
    if (!getToken()) return [];
    return (getUser() ?? (await loadUser())).permissions;
  },
};
