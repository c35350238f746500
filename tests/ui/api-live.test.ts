// @vitest-environment jsdom
/**
 * The client against the real API in-process (PGlite): global fetch is routed to the Hono app, so the
 * client's rules and the server's envelope are checked together.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authProvider } from '../../src/api/authProvider';
import { createDataProvider } from '../../src/api/dataProvider';
import { onConfirmLogout, onToast, setNavigate, type Toast } from '../../src/api/events';
import type { ApiFailure } from '../../src/api/http';
import { clearUser, getUser, loadUser, login, logout } from '../../src/api/session';
import { getSystemSettings, loadSystemSettings, saveSystemSettings } from '../../src/api/system';
import { ADMIN_PASSWORD, startApi, type TestApi } from '../api/harness';

let api: TestApi;
let toasts: Toast[] = [];
let prompts = 0;
const navigations: string[] = [];
const dp = createDataProvider({ operators: 'admin/operators' });

beforeAll(async () => {
  api = await startApi();
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => api.app.request(url, init));
  onToast((t) => toasts.push(t));
  onConfirmLogout(() => prompts++);
  setNavigate((to) => navigations.push(to));
}, 60_000);

afterAll(async () => {
  vi.unstubAllGlobals();
  await api?.close();
});

// Each test starts logged out, with no operator and no settings loaded: none leans on what an earlier one left.
beforeEach(() => {
  localStorage.clear();
  clearUser();
  toasts = [];
  prompts = 0;
});

/** Logged in as the admin, the operator and the system settings loaded, as the app is after its login. */
async function signedIn() {
  await login('admin', ADMIN_PASSWORD);
  await loadUser();
  await loadSystemSettings();
  toasts = [];
}

describe('client against the API', () => {
  it('logs in, loads the operator and the system settings', async () => {
    await expect(login('admin', 'wrong')).rejects.toMatchObject({ code: 40100 });
    expect(toasts).toHaveLength(1);
    const { token, id } = await login('admin', ADMIN_PASSWORD);
    expect(localStorage.getItem('token')).toBe(token);
    expect(localStorage.getItem('uid')).toBe(String(id));
    await expect(loadUser()).resolves.toMatchObject({ account: 'admin', role: 'admin', realRole: 'admin' });
    const settings = await loadSystemSettings();
    expect(settings?.platforms.map((p) => p.key)).toEqual([2, 1, 4, 5, 6]);
    expect(Object.keys(settings?.platformMap ?? {})).toHaveLength(5);
  });

  it('saves system settings with the version and refreshes the store', async () => {
    await signedIn();
    await saveSystemSettings({ tenant: 2, notice: '欢迎' });
    const version = getSystemSettings()?.version;
    expect(getSystemSettings()).toMatchObject({ notice: '欢迎' });
    await saveSystemSettings({ tenant: 2, version, notice: '你好' });
    expect(getSystemSettings()).toMatchObject({ notice: '你好' });
    await expect(saveSystemSettings({ tenant: 2, version, notice: 'stale' })).rejects.toMatchObject({
      code: 40900,
    });
  });

  it('runs the operators resource through the dataProvider', async () => {
    await signedIn();
    const { data: created } = await dp.create('operators', {
      data: { account: 'lisi', password: 'password123', nickname: 'Li', role: 'user' },
    });
    const list = await dp.getList('operators', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'id', order: 'DESC' },
      filter: { q: 'lisi', role: 'user' },
    });
    expect(list.data.map((r) => r.account)).toEqual(['lisi']);
    const { data: one } = await dp.getOne('operators', { id: created.id });
    const { data: updated } = await dp.update('operators', {
      id: created.id,
      data: { ...one, nickname: 'Li Si' },
      previousData: one,
    });
    expect(updated.nickname).toBe('Li Si');
    await expect(
      dp.update('operators', { id: created.id, data: { nickname: 'x' }, previousData: one }),
    ).rejects.toMatchObject({ code: 40900 });
    await dp.action('operators', created.id, 'disable');
    await expect(dp.batch('operators', 'enable', [created.id])).resolves.toEqual({ changed: 1 });
    const { data: many } = await dp.getMany('operators', { ids: [created.id] });
    expect(many).toHaveLength(1);
  });

  it('sends a disabled operator to login (errCode 2001)', async () => {
    await signedIn();
    const adminToken = localStorage.getItem('token')!;
    const { data: op } = await dp.create('operators', {
      data: { account: 'wang', password: 'password123', role: 'user' },
    });
    clearUser();
    await login('wang', 'password123');
    const wangToken = localStorage.getItem('token')!;
    localStorage.setItem('token', adminToken);
    await dp.action('operators', op.id, 'disable');
    localStorage.setItem('token', wangToken);
    window.history.pushState({}, '', '/movie/review');
    const err = await loadUser().catch((e: ApiFailure) => e);
    expect(err).toMatchObject({ errCode: 2001 });
    await expect(authProvider.checkError(err)).rejects.toMatchObject({
      redirectTo: '/login?redirect=%2Fmovie%2Freview',
    });
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigations).toContain('/login?redirect=%2Fmovie%2Freview');
    localStorage.setItem('token', adminToken);
  });

  it('asks to confirm logout after the session was revoked, except for admin/info', async () => {
    await signedIn();
    const token = localStorage.getItem('token')!;
    await logout();
    localStorage.setItem('token', token);
    clearUser();
    await expect(loadUser()).rejects.toMatchObject({ code: 50008 });
    expect(prompts).toBe(0);
    await expect(loadSystemSettings()).resolves.toBeNull();
    expect(prompts).toBe(1);
    expect(getUser()).toBeNull();
  });
});
