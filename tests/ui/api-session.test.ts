// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onConfirmLogout, onToast, setReload, type Toast } from '../../src/api/events';
import {
  clearUser,
  DEFAULT_AVATAR,
  getUser,
  loadUser,
  login,
  logout,
  relogin,
  switchRole,
  useUser,
} from '../../src/api/session';
import { builtinPermissions } from '../../src/auth/catalog';
import { envelope, queryOf, stubFetch } from './api-fetch-stub';

const admin = { uid: 1, avatar: '', nickname: '掌柜', account: 'admin', role: 'admin' };
const operator = { uid: 2, avatar: '/a.png', nickname: 'Li', account: 'li', role: 'user' };

let toasts: Toast[];
const off: Array<() => void> = [];

beforeEach(() => {
  localStorage.clear();
  clearUser();
  toasts = [];
  off.push(onToast((t) => toasts.push(t)));
});

afterEach(() => {
  for (const fn of off.splice(0)) fn();
  vi.unstubAllGlobals();
});

describe('login', () => {
  it('posts the credentials and stores token and uid', async () => {
    const seen = stubFetch(envelope({ token: 'tok', id: 5 }));
    await expect(login('admin', 'secret')).resolves.toEqual({ token: 'tok', id: 5 });
    expect(seen[0]).toMatchObject({ url: '/app/admin/login', method: 'POST' });
    expect(seen[0].body).toEqual({ username: 'admin', password: 'secret' });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('uid')).toBe('5');
  });

  it('on failure clears the token and rethrows', async () => {
    localStorage.setItem('token', 'old');
    stubFetch(envelope(null, 40100, 'Wrong user name or password'));
    await expect(login('admin', 'bad')).rejects.toMatchObject({ code: 40100 });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('forgets the previous operator', async () => {
    localStorage.setItem('uid', '1');
    stubFetch(envelope(admin));
    await loadUser();
    stubFetch(envelope({ token: 'tok', id: 2 }));
    await login('li', 'pw');
    expect(getUser()).toBeNull();
  });
});

describe('logout', () => {
  it('posts admin/logout with the token, then clears token, uid and the user store', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('uid', '1');
    stubFetch(envelope(admin));
    await loadUser();
    const seen = stubFetch(envelope(null));
    await logout();
    expect(seen[0]).toMatchObject({ url: '/app/admin/logout', method: 'POST' });
    expect(seen[0].headers['Admin-Token']).toBe('tok');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('uid')).toBeNull();
    expect(getUser()).toBeNull();
  });

  it('is best effort: a failed call neither toasts, prompts nor keeps the session', async () => {
    localStorage.setItem('token', 'tok');
    let prompts = 0;
    off.push(onConfirmLogout(() => prompts++));
    stubFetch(envelope(null, 50014, 'expired'));
    await logout();
    stubFetch(new TypeError('Failed to fetch'));
    await logout();
    expect(toasts).toEqual([]);
    expect(prompts).toBe(0);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('makes no call without a token, and still clears the user store', async () => {
    localStorage.setItem('uid', '1');
    stubFetch(envelope(admin));
    await loadUser();
    const seen = stubFetch(envelope(null));
    await logout();
    expect(seen).toEqual([]);
    expect(getUser()).toBeNull();
    expect(localStorage.getItem('uid')).toBeNull();
  });

  it("'Re-Login' logs out, then reloads", async () => {
    localStorage.setItem('token', 'tok');
    const reloaded = vi.fn(() => expect(localStorage.getItem('token')).toBeNull());
    setReload(reloaded);
    stubFetch(envelope(null));
    await relogin();
    expect(reloaded).toHaveBeenCalledTimes(1);
  });
});

describe('the user store', () => {
  it('loads admin/info?id=<uid> and falls back to the default avatar', async () => {
    localStorage.setItem('uid', '1');
    const seen = stubFetch(envelope(admin));
    const user = await loadUser();
    expect(seen[0].url.split('?')[0]).toBe('/app/admin/info');
    expect(queryOf(seen[0].url)).toEqual({ id: '1' });
    // An answer without permissions (a server before issue #52) gets the built-in role's.
    expect(user).toEqual({
      ...admin,
      avatar: DEFAULT_AVATAR,
      realRole: 'admin',
      permissions: builtinPermissions('admin'),
      realPermissions: builtinPermissions('admin'),
    });
    expect(getUser()).toEqual(user);
  });

  it('keeps an avatar the server gave', async () => {
    stubFetch(envelope(operator));
    expect((await loadUser()).avatar).toBe('/a.png');
  });

  it('fetches only when no uid is in the store, and concurrent callers share one request', async () => {
    const seen = stubFetch(envelope(admin));
    await Promise.all([loadUser(), loadUser()]);
    await loadUser();
    expect(seen).toHaveLength(1);
  });

  it('does not cache a failure', async () => {
    stubFetch(envelope(null, 50000, 'boom'), envelope(admin));
    await expect(loadUser()).rejects.toMatchObject({ code: 50000 });
    await expect(loadUser()).resolves.toMatchObject({ uid: 1 });
  });

  it('DEFAULT_AVATAR is an inline SVG data URI', () => {
    expect(DEFAULT_AVATAR).toMatch(/^data:image\/svg\+xml/);
  });
});

describe('switchRole', () => {
  it('refuses an operator whose real role is user', async () => {
    stubFetch(envelope(operator));
    await loadUser();
    expect(switchRole('admin')).toBe(false);
    expect(getUser()?.role).toBe('user');
  });

  it('refuses without a loaded operator', () => {
    expect(switchRole('user')).toBe(false);
  });

  it('lets an admin view as user and back, keeping the real role, and re-renders useUser', async () => {
    stubFetch(envelope(admin));
    await loadUser();
    const { result } = renderHook(() => useUser());
    expect(result.current?.role).toBe('admin');
    act(() => {
      expect(switchRole('user')).toBe(true);
    });
    expect(result.current).toMatchObject({ role: 'user', realRole: 'admin' });
    act(() => {
      expect(switchRole('admin')).toBe(true);
    });
    expect(result.current?.role).toBe('admin');
  });
});
