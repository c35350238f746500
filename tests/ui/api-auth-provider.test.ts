// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authProvider } from '../../src/api/authProvider';
import { ApiFailure } from '../../src/api/http';
import { clearUser, switchRole } from '../../src/api/session';
import { builtinPermissions } from '../../src/auth/catalog';
import { envelope, stubFetch } from './api-fetch-stub';

const admin = { uid: 1, avatar: '', nickname: '掌柜', account: 'admin', role: 'admin' };
const here = '/movie/review?page=2';
const loginHere = `/login?redirect=${encodeURIComponent(here)}`;

beforeEach(() => {
  localStorage.clear();
  clearUser();
  window.history.pushState({}, '', here);
});

afterEach(() => vi.unstubAllGlobals());

describe('authProvider', () => {
  it('login stores the session', async () => {
    stubFetch(envelope({ token: 'tok', id: 1 }));
    await authProvider.login({ username: 'admin', password: 'pw' });
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('login rejects (and clears the token) when the server refuses', async () => {
    localStorage.setItem('token', 'old');
    stubFetch(envelope(null, 40100, 'wrong'));
    await expect(authProvider.login({ username: 'admin', password: 'x' })).rejects.toBeInstanceOf(ApiFailure);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('logout clears the session and returns the login path naming the current route', async () => {
    localStorage.setItem('token', 'tok');
    stubFetch(envelope(null));
    await expect(authProvider.logout({})).resolves.toBe(loginHere);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('checkAuth resolves with a token', async () => {
    localStorage.setItem('token', 'tok');
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkAuth without a token rejects with a redirect to login naming the current route', async () => {
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: loginHere });
  });

  it('checkError resolves for codes the client already handled', async () => {
    for (const code of [40000, 40300, 50008, 50014]) {
      await expect(
        authProvider.checkError(new ApiFailure({ code, msg: 'x', data: null })),
      ).resolves.toBeUndefined();
    }
    await expect(authProvider.checkError(new Error('network'))).resolves.toBeUndefined();
  });

  it('checkError rejects for errCode 2001', async () => {
    const err = new ApiFailure({ code: 50008, msg: 'x', data: null, errCode: 2001 });
    await expect(authProvider.checkError(err)).rejects.toMatchObject({ redirectTo: loginHere });
  });

  it('getIdentity comes from the user store', async () => {
    localStorage.setItem('uid', '1');
    const seen = stubFetch(envelope(admin));
    const identity = await authProvider.getIdentity!();
    expect(identity).toMatchObject({ id: 1, fullName: '掌柜', account: 'admin', role: 'admin' });
    expect(identity.avatar).toMatch(/^data:image\/svg/);
    await authProvider.getIdentity!();
    expect(seen).toHaveLength(1);
  });

  it("getPermissions is the (possibly switched) role's permissions, and none without a session", async () => {
    await expect(authProvider.getPermissions!({})).resolves.toEqual([]);
    localStorage.setItem('token', 'tok');
    stubFetch(envelope(admin));
    await expect(authProvider.getPermissions!({})).resolves.toEqual(builtinPermissions('admin'));
    switchRole('user');
    await expect(authProvider.getPermissions!({})).resolves.toEqual(builtinPermissions('user'));
  });
});
