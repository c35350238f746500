// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onConfirmLogout, onToast, setNavigate, type Toast } from '../../src/api/events';
import { ApiFailure, prefetchGets, request } from '../../src/api/http';
import { setLocale } from '../../src/api/locale';
import { envelope, json, stubFetch } from './api-fetch-stub';

let toasts: Toast[];
let confirms: number;
let navigations: string[];
const unsubscribe: Array<() => void> = [];

beforeEach(() => {
  localStorage.clear();
  window.history.pushState({}, '', '/movie/review?page=2');
  toasts = [];
  confirms = 0;
  navigations = [];
  unsubscribe.push(onToast((t) => toasts.push(t)));
  unsubscribe.push(onConfirmLogout(() => confirms++));
  setNavigate((to) => navigations.push(to));
});

afterEach(() => {
  for (const fn of unsubscribe.splice(0)) fn();
  vi.unstubAllGlobals();
});

describe('request: what is sent', () => {
  it('prefixes the path with /app and appends the query', async () => {
    const seen = stubFetch(envelope(null));
    await request('/admin/info', { query: { id: 7, q: '', ids: [1, 2], none: null } });
    expect(seen[0].url).toBe('/app/admin/info?id=7&ids=1%2C2');
  });

  it('sends JSON bodies with a JSON content type and the method', async () => {
    const seen = stubFetch(envelope(null));
    await request('admin/password', { method: 'POST', json: { oldPassword: 'a', newPassword: 'b' } });
    expect(seen[0].method).toBe('POST');
    expect(seen[0].headers['Content-Type']).toBe('application/json');
    expect(seen[0].body).toEqual({ oldPassword: 'a', newPassword: 'b' });
  });

  it('adds Admin-Token from localStorage', async () => {
    localStorage.setItem('token', 'tok-1');
    const seen = stubFetch(envelope(null));
    await request('admin/info');
    expect(seen[0].headers['Admin-Token']).toBe('tok-1');
  });

  it('sends no Admin-Token without a stored token', async () => {
    const seen = stubFetch(envelope(null));
    await request('admin/info');
    expect(seen[0].headers).not.toHaveProperty('Admin-Token');
  });

  it('does not overwrite an Admin-Token the caller set, whatever its case', async () => {
    localStorage.setItem('token', 'stored');
    const seen = stubFetch(envelope(null));
    await request('admin/info', { headers: { 'admin-token': 'mine' } });
    expect(seen[0].headers['admin-token']).toBe('mine');
    expect(seen[0].headers).not.toHaveProperty('Admin-Token');
  });

  it('sends Accept-Language with the UI locale (zh-CN by default)', async () => {
    const seen = stubFetch(envelope(null));
    await request('admin/info');
    setLocale('en-US');
    await request('admin/info');
    expect(seen.map((s) => s.headers['Accept-Language'])).toEqual(['zh-CN', 'en-US']);
  });

  it('sets no timeout: without a caller signal, fetch gets none', async () => {
    const seen = stubFetch(envelope(null));
    await request('admin/info');
    expect(seen[0].signal).toBeUndefined();
  });
});

describe('request: how answers are read', () => {
  it('resolves with data when code is 20000', async () => {
    stubFetch(envelope({ token: 't', id: 1 }));
    await expect(request('admin/login', { method: 'POST', json: {} })).resolves.toEqual({
      token: 't',
      id: 1,
    });
    expect(toasts).toEqual([]);
  });

  it('returns JSON that is not an envelope as parsed', async () => {
    stubFetch(json({ paths: {} }));
    await expect(request('openapi.json')).resolves.toEqual({ paths: {} });
  });

  it('returns text and HTML as text', async () => {
    stubFetch(
      new Response('plain', { headers: { 'content-type': 'text/plain' } }),
      new Response('<p>x</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    );
    await expect(request('a')).resolves.toBe('plain');
    await expect(request('b')).resolves.toBe('<p>x</p>');
  });

  it('returns other content types as the raw Response', async () => {
    stubFetch(new Response(new Uint8Array([1, 2]), { headers: { 'content-type': 'image/png' } }));
    const res = await request<Response>('img');
    expect(res).toBeInstanceOf(Response);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([1, 2]));
  });
});

describe('request: failures', () => {
  it('toasts the msg for 5000 ms and rejects with an ApiFailure when code is not 20000', async () => {
    stubFetch(envelope({ fields: { name: 'Required' } }, 40000, 'name: Required'));
    const err = await request<never>('admin/operators', { method: 'POST', json: {} }).catch(
      (e: ApiFailure) => e,
    );
    expect(err).toBeInstanceOf(ApiFailure);
    expect(err).toMatchObject({ code: 40000, msg: 'name: Required', message: 'name: Required' });
    expect(err.data).toEqual({ fields: { name: 'Required' } });
    expect(toasts).toEqual([{ type: 'error', message: 'name: Required', duration: 5000 }]);
  });

  it("toasts 'Error' (en-US) when the failure carries no msg", async () => {
    setLocale('en-US');
    stubFetch(envelope(null, 40400, ''));
    await expect(request('x')).rejects.toBeInstanceOf(ApiFailure);
    expect(toasts[0]).toEqual({ type: 'error', message: 'Error', duration: 5000 });
  });

  it('toasts the zh-CN fallback when the failure carries no msg in zh-CN', async () => {
    stubFetch(envelope(null, 40400, ''));
    await expect(request('x')).rejects.toBeInstanceOf(ApiFailure);
    expect(toasts[0].message).toBe('错误');
  });

  it('rejects with the Response on a non-OK HTTP status, toasting its msg', async () => {
    stubFetch(json({ code: 50000, msg: 'Internal server error (request r1)', data: null }, 500));
    const err = await request<never>('admin/info').catch((e: Response) => e);
    expect(err).toBeInstanceOf(Response);
    expect(err.status).toBe(500);
    expect(await err.json()).toMatchObject({ code: 50000 });
    expect(toasts).toEqual([
      { type: 'error', message: 'Internal server error (request r1)', duration: 5000 },
    ]);
  });

  it.each([
    ['zh-CN', '数据库暂时不可用，请稍后重试'],
    ['en-US', 'Database unavailable, please retry'],
  ] as const)('toasts code 50300 (HTTP 503) in the UI language (%s) and rejects with an ApiFailure', async (locale, text) => {
    setLocale(locale);
    stubFetch(json({ code: 50300, msg: 'from the server', data: null }, 503));
    const err = await request<never>('admin/movies').catch((e) => e);
    expect(err).toBeInstanceOf(ApiFailure);
    expect(err.code).toBe(50300);
    expect(toasts).toEqual([{ type: 'error', message: text, duration: 5000 }]);
    expect(confirms).toBe(0);
  });

  it('keeps a quiet 50300 silent', async () => {
    stubFetch(json({ code: 50300, msg: 'x', data: null }, 503));
    await expect(request('admin/movies', { quiet: true })).rejects.toMatchObject({ code: 50300 });
    expect(toasts).toEqual([]);
  });

  it.each([50008, 50012, 50014])('asks to confirm logout on code %i', async (code) => {
    stubFetch(envelope(null, code, 'session over'));
    await expect(request('admin/operators')).rejects.toMatchObject({ code });
    expect(confirms).toBe(1);
    expect(toasts).toHaveLength(1);
  });

  it.each([
    'admin/info',
    '/admin/info',
    'admin/login',
  ])('never asks to confirm logout for %s', async (path) => {
    stubFetch(envelope(null, 50014, 'expired'));
    await expect(request(path, { query: { id: 1 } })).rejects.toMatchObject({ code: 50014 });
    expect(confirms).toBe(0);
  });

  it('does not ask to confirm logout for other codes', async () => {
    stubFetch(envelope(null, 40300, 'forbidden'));
    await expect(request('admin/operators')).rejects.toBeInstanceOf(ApiFailure);
    expect(confirms).toBe(0);
  });

  it('on errCode 2001 clears the token and goes to login with the current path as redirect', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('uid', '3');
    stubFetch(envelope(null, 50008, 'disabled', { errCode: 2001 }));
    const err = await request('admin/operators').catch((e) => e);
    expect(err).toMatchObject({ code: 50008, errCode: 2001 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigations).toEqual([`/login?redirect=${encodeURIComponent('/movie/review?page=2')}`]);
    expect(confirms).toBe(0);
  });

  it('on errCode 2001 while on the login page, clears the token without navigating', async () => {
    window.history.pushState({}, '', '/login?redirect=%2Fad');
    localStorage.setItem('token', 'tok');
    stubFetch(envelope(null, 40300, 'disabled', { errCode: 2001 }));
    await expect(request('admin/info')).rejects.toBeInstanceOf(ApiFailure);
    expect(localStorage.getItem('token')).toBeNull();
    expect(navigations).toEqual([]);
  });

  it('toasts a transport error for 5000 ms and rejects with it', async () => {
    const boom = new TypeError('Failed to fetch');
    stubFetch(boom);
    await expect(request('admin/info')).rejects.toBe(boom);
    expect(toasts).toEqual([{ type: 'error', message: 'Failed to fetch', duration: 5000 }]);
  });

  it('does not toast when the caller aborted the request', async () => {
    const controller = new AbortController();
    controller.abort();
    stubFetch(new DOMException('aborted', 'AbortError'));
    await expect(request('admin/info', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(toasts).toEqual([]);
  });

  it('quiet requests reject without toasting', async () => {
    stubFetch(envelope(null, 40000, 'bad'));
    await expect(request('x', { quiet: true })).rejects.toBeInstanceOf(ApiFailure);
    expect(toasts).toEqual([]);
  });
});

describe('prefetchGets: a GET asked ahead of its screen', () => {
  it('answers the same GET once from the early request, then asks again; other GETs and POSTs are not kept', async () => {
    const seen = stubFetch(envelope({ list: [{ id: 1 }], total: 1 }));
    let early: unknown;
    prefetchGets(async () => {
      early = await request('admin/movie/movies', { query: { view: 'review', page: 1 } });
    });
    expect(seen.map((r) => r.url)).toEqual(['/app/admin/movie/movies?view=review&page=1']);
    // the screen mounts: its identical GET is answered by the early one, with the same body
    const data = await request('admin/movie/movies', { query: { view: 'review', page: 1 } });
    expect(data).toEqual({ list: [{ id: 1 }], total: 1 });
    await vi.waitFor(() => expect(early).toEqual(data));
    expect(seen).toHaveLength(1);
    // used once: the next identical GET asks the server
    await request('admin/movie/movies', { query: { view: 'review', page: 1 } });
    expect(seen).toHaveLength(2);
    // outside prefetchGets nothing is kept
    await request('admin/movie/movies', { query: { view: 'review', page: 2 } });
    await request('admin/movie/movies', { query: { view: 'review', page: 2 } });
    expect(seen).toHaveLength(4);
  });
});
