import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApi, type TestApi } from './harness';
import { event, rollup, siteSender } from './stats-helpers';

/**
 * Issue #48: settling a period that no rollup reached (before the site's first events, or before any) froze it as
 * zeros. It is refused, on `from`, naming the first day with statistics, in both languages.
 * The harness clock is 2026-06-01 16:00 in Shanghai.
 */
let api: TestApi;
let admin: string;
let agent: number;
let send: Awaited<ReturnType<typeof siteSender>>;

const settle = (body: Record<string, unknown>, locale = 'zh-CN') =>
  api.call('POST', `/app/admin/agents/stat/${agent}/settlements`, {
    token: admin,
    body,
    headers: { 'Accept-Language': locale },
  });

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
  const r = await api.call('POST', '/app/admin/agents', {
    token: admin,
    body: { name: 'reach', channel: 'reach-a', model: 'share', rate: 10 },
  });
  agent = r.body.data.id;
});
afterAll(() => api?.close());

test('a period without any rolled-up day is refused, naming the first day with statistics', async () => {
  // No statistics at all yet.
  const none = await settle({ from: '2026-05-01', to: '2026-05-10' });
  expect(none.body.code).toBe(40000);
  expect(none.body.data.fields.from).toContain('还没有任何已汇总的统计数据');
  const noneEn = await settle({ from: '2026-05-01', to: '2026-05-10' }, 'en-US');
  expect(noneEn.body.data.fields.from).toContain('No statistics have been rolled up yet');

  const r = await send([
    event({ visitor: 'r1', channel: 'reach-a', time: '2026-05-20T02:00:00Z' }),
    event({ visitor: 'r1', type: 'recharge', amount: 10, time: '2026-05-21T02:00:00Z' }),
  ]);
  expect(r.body.data.rejected).toEqual([]);
  await rollup(api, admin);

  // Before the first day with data: refused, naming it.
  const before = await settle({ from: '2026-05-01', to: '2026-05-10' });
  expect(before.body.code).toBe(40000);
  expect(before.body.data.fields.from).toContain('2026-05-20');
  expect(before.body.msg).toBeTruthy();
  const beforeEn = await settle({ from: '2026-05-01', to: '2026-05-10' }, 'en-US');
  expect(beforeEn.body.data.fields.from).toBe(
    'No statistics were rolled up for any day of this period; the first day with statistics is 2026-05-20',
  );
  // Nothing was settled.
  const list = await api.call('GET', `/app/admin/agents/stat/${agent}/settlements`, { token: admin });
  expect(list.body.data).toEqual([]);

  // A period reaching the rolled-up days settles (days before the first one as zeros, as before).
  const ok = await settle({ from: '2026-05-15', to: '2026-05-25' });
  expect(ok.body.code).toBe(20000);
  expect(ok.body.data).toMatchObject({ rechargeAmount: 10 });
});
