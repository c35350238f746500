import { afterAll, beforeAll, expect, test } from 'vitest';
import { sanitizeRichText } from '../../common/rich-text';
import { seed } from '../../server/seed';
import { startApi, type TestApi } from './harness';

/** Issue #5: demo mode shows notices in every state, promotion apps and the statistics settings. */
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startApi();
  await seed(api.database.db, api.config, { movies: 5, actresses: 3, now: api.clock.now() });
  admin = await api.login();
});
afterAll(() => api.close());

test('seeded notices cover every state; their pop-ups are already sanitized', async () => {
  const list = (await api.call('GET', '/app/admin/setting/notices?pageSize=100', { token: admin })).body.data
    .list;
  const states = list.map((n: { state: string }) => n.state).sort();
  expect(states).toEqual(['disabled', 'expired', 'live', 'live', 'scheduled']);
  for (const n of list) if (n.type === 'popup') expect(sanitizeRichText(n.content)).toBe(n.content);
});

test('the site API answers the seeded data once a key exists', async () => {
  const key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data
    .key;
  const res = await api.app.request('/app/site/config?platform=2', { headers: { 'Site-Key': key } });
  const { data } = await res.json();
  expect(data.site.name).toBe('樱桃视频');
  expect(data.notices.marquee.map((n: { title: string }) => n.title)).toEqual(['维护通知']);
  expect(data.notices.popup.map((n: { title: string }) => n.title)).toEqual(['新域名上线']);
  expect(data.apps.map((a: { os: string }) => a.os)).toEqual(['android', 'ios', 'desktop']);
  expect(data.statistics.snippet).toContain('_hmt');
  // The scheduled pop-up's start is a boundary: the answer may be cached only until then.
  expect(res.headers.get('cache-control')).toBe('public, max-age=60');
});
