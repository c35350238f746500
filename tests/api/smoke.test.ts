import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApi, type TestApi } from './harness';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test('health answers in the envelope', async () => {
  const r = await api.call('GET', '/app/health');
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ code: 20000, data: { status: 'ok' } });
});

test('login, info, settings', async () => {
  const token = await api.login();
  const info = await api.call('GET', '/app/admin/info?id=1', { token });
  expect(info.body.data).toMatchObject({ uid: 1, account: 'admin', role: 'admin' });
  const s = await api.call('GET', '/app/admin/sys/getSetting?tenant=2', { token });
  expect(s.body.data.platforms.map((p: any) => p.key)).toEqual([2, 1, 4, 5, 6]);
});
