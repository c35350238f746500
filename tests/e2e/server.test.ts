import { expect, test } from 'vitest';
import { baseURL } from './browser';

test('every non-/app path gets index.html (history routing), never cached, with security headers', async () => {
  for (const path of ['/', '/login?redirect=%2Fsetting%2Foperators', '/movie/review', '/no/such/page']) {
    const res = await fetch(`${baseURL()}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toContain('<div id="root">');
  }
});

test('hashed assets are cached for a year; a missing asset is a 404, not index.html', async () => {
  const html = await (await fetch(`${baseURL()}/login`)).text();
  const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
  expect(asset).toBeTruthy();
  const res = await fetch(`${baseURL()}${asset}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${baseURL()}/assets/missing-0000.js`)).status).toBe(404);
});

test('unknown /app paths answer the envelope, not the SPA', async () => {
  const res = await fetch(`${baseURL()}/app/no/such/route`, { headers: { 'Accept-Language': 'en-US' } });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ code: 40400, msg: 'No such endpoint: GET /app/no/such/route' });
});

test('responses are compressed when the client accepts it', async () => {
  const res = await fetch(`${baseURL()}/app/openapi.json`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(res.headers.get('content-encoding')).toBe('gzip');
  expect((await res.json()).openapi).toBe('3.1.0');
});
