import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commissionOf, qualityFlags } from '../../common/agents';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { event, rollup, siteSender } from './stats-helpers';

/** Issue #16: agents' records and rules, attribution (first touch within the window), commission, settlement, quality. */
let api: TestApi;
let admin: string;
let user: string;
let send: Awaited<ReturnType<typeof siteSender>>;
const A = '/app/admin/agents';
const S = '/app/admin/agents/stat';

const create = async (body: Record<string, unknown>, token = admin) =>
  api.call('POST', A, { token, body: { name: `agent ${body.channel}`, ...body } });

async function sendAll(events: Record<string, unknown>[]) {
  for (let i = 0; i < events.length; i += 500) {
    const r = await send(events.slice(i, i + 500));
    expect(r.body.data.rejected).toEqual([]);
  }
}

const stat = async (query: Record<string, string>, token = admin) =>
  (await api.call('GET', `${S}?${new URLSearchParams({ pageSize: '100', ...query })}`, { token })).body;
const rowOf = async (channel: string, query: Record<string, string> = {}) => {
  const body = await stat({ from: '2026-05-05', to: '2026-05-31', ...query });
  expect(body.code).toBe(20000);
  return body.data.list.find((r: { channel: string }) => r.channel === channel);
};

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'agentreader' });
  user = await api.login('agentreader', USER_PASSWORD);
  send = await siteSender(api, admin);
});
afterAll(() => api?.close());

describe('agent records', () => {
  test('create, read by any operator, write by admins only', async () => {
    const r = await create({ channel: 'rec-a', model: 'signup', rate: 2.5, contact: 'qq 1' });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      channel: 'rec-a',
      model: 'signup',
      rate: 2.5,
      parentId: null,
      enabled: true,
    });
    expect((await api.call('GET', `${A}/${r.body.data.id}`, { token: user })).body.code).toBe(20000);
    expect((await create({ channel: 'rec-b' }, user)).body.code).toBe(40300);
  });

  test('bad input is a field error naming the field', async () => {
    const bad = async (body: Record<string, unknown>) => (await create(body)).body;
    const pattern = await bad({ channel: 'has space' });
    expect(pattern.code).toBe(40000);
    expect(pattern.data.fields.channel).toBeTruthy();
    const share = await bad({ channel: 'rec-share', model: 'share', rate: 120 });
    expect(share.data.fields.rate).toContain('100');
    expect((await bad({ channel: 'rec-cents', model: 'signup', rate: 1.005 })).data.fields.rate).toBeTruthy();
    expect((await bad({ channel: 'rec-p', parentId: 999_999 })).data.fields.parentId).toBeTruthy();
    expect((await bad({ channel: 'rec-m', model: 'cpm' })).data.fields.model).toBeTruthy();
    const dup = await bad({ channel: 'rec-a', name: 'another name' });
    expect(dup.code).toBe(40900);
    expect(dup.data.fields.channel).toBeTruthy();
  });

  test('the channel code is fixed, the parent cannot make a cycle, a parent cannot be deleted', async () => {
    const top = (await create({ channel: 'tree-top' })).body.data;
    const mid = (await create({ channel: 'tree-mid', parentId: top.id })).body.data;
    const low = (await create({ channel: 'tree-low', parentId: mid.id })).body.data;
    const fixed = await api.call('PUT', `${A}/${top.id}`, {
      token: admin,
      body: { channel: 'tree-new', version: top.version },
    });
    expect(fixed.body.data.fields.channel).toBeTruthy();
    const cycle = await api.call('PUT', `${A}/${top.id}`, {
      token: admin,
      body: { parentId: low.id, version: top.version },
    });
    expect(cycle.body.code).toBe(40000);
    expect(cycle.body.data.fields.parentId).toBeTruthy();
    const self = await api.call('PUT', `${A}/${top.id}`, {
      token: admin,
      body: { parentId: top.id, version: top.version },
    });
    expect(self.body.data.fields.parentId).toBeTruthy();
    expect((await api.call('DELETE', `${A}/${mid.id}`, { token: admin })).body.code).toBe(40900);
    // Deleted together with its sub-agent, it goes.
    const both = await api.call('POST', `${A}/batch`, {
      token: admin,
      body: { action: 'delete', ids: [mid.id, low.id] },
    });
    expect(both.body.data.changed).toBe(2);
  });

  test('the list by exact channel codes: only those agents; an empty list matches none', async () => {
    for (const channel of ['chn-1', 'chn-2', 'chn-10']) await create({ channel });
    const by = async (channels: string) =>
      (
        await api.call('GET', `${A}?channels=${encodeURIComponent(channels)}&pageSize=100`, { token: user })
      ).body.data.list
        .map((a: { channel: string }) => a.channel)
        .sort();
    expect(await by('chn-1, chn-10,unknown')).toEqual(['chn-1', 'chn-10']);
    expect(await by('')).toEqual([]);
    expect(await by(',')).toEqual([]);
  });

  test('binding domains: exactly the listed ones, a domain of another channel refused by name', async () => {
    const agent = (await create({ channel: 'dom-a' })).body.data;
    const other = (await create({ channel: 'dom-b' })).body.data;
    const imported = await api.call('POST', '/app/admin/domain/domains/import', {
      token: admin,
      body: { text: 'dom-a1.example.com\ndom-a2.example.com\ndom-b1.example.com', role: 'channel' },
    });
    expect(imported.body.code).toBe(20000);
    const list = (await api.call('GET', '/app/admin/domain/domains?q=dom-&pageSize=50', { token: admin }))
      .body.data.list;
    const idOf = (h: string) => list.find((d: { hostname: string }) => d.hostname === h).id;
    const put = (id: number, ids: number[]) =>
      api.call('PUT', `${A}/${id}/domains`, { token: admin, body: { ids } });
    expect((await put(other.id, [idOf('dom-b1.example.com')])).body.code).toBe(20000);
    const bound = await put(agent.id, [idOf('dom-a1.example.com'), idOf('dom-a2.example.com')]);
    expect(bound.body.data.map((d: { hostname: string }) => d.hostname)).toEqual([
      'dom-a1.example.com',
      'dom-a2.example.com',
    ]);
    const taken = await put(agent.id, [idOf('dom-b1.example.com')]);
    expect(taken.body.code).toBe(40000);
    expect(taken.body.data.fields.ids).toContain('dom-b1.example.com');
    const fewer = await put(agent.id, [idOf('dom-a2.example.com')]);
    expect(fewer.body.data.map((d: { hostname: string }) => d.hostname)).toEqual(['dom-a2.example.com']);
    expect((await put(agent.id, [])).body.data).toEqual([]);
    expect(
      (await api.call('PUT', `${A}/${agent.id}/domains`, { token: user, body: { ids: [] } })).body.code,
    ).toBe(40300);
  });

  test("binding from an agent's page writes the domains' history, as an edit of their channel", async () => {
    const agent = (await create({ channel: 'hist-a' })).body.data;
    await api.call('POST', '/app/admin/domain/domains/import', {
      token: admin,
      body: { text: 'hist-a1.example.com\nhist-a2.example.com', role: 'channel' },
    });
    const list = (await api.call('GET', '/app/admin/domain/domains?q=hist-a&pageSize=50', { token: admin }))
      .body.data.list;
    const idOf = (h: string) => list.find((d: { hostname: string }) => d.hostname === h).id;
    const [a1, a2] = [idOf('hist-a1.example.com'), idOf('hist-a2.example.com')];
    const put = (ids: number[]) =>
      api.call('PUT', `${A}/${agent.id}/domains`, { token: admin, body: { ids } });
    const edits = async (id: number) =>
      (
        await api.call('GET', `/app/admin/domain/history?domainId=${id}&action=edit`, { token: admin })
      ).body.data.list.map((h: any) => [h.from, h.to, h.channel ?? null, h.actor]);
    expect((await put([a1, a2])).body.code).toBe(20000);
    expect((await put([a1, a2])).body.code).toBe(20000); // nothing changes: no history row
    expect((await put([a2])).body.code).toBe(20000);
    expect(await edits(a1)).toEqual([
      ['channel: hist-a', 'channel: ', 'hist-a', 'admin'],
      ['channel: ', 'channel: hist-a', null, 'admin'],
    ]);
    expect(await edits(a2)).toEqual([['channel: ', 'channel: hist-a', null, 'admin']]);
  });
});

describe('attribution, commission and settlement', () => {
  let share: { id: number };
  let perSignup: { id: number };
  let perPayer: { id: number };
  beforeAll(async () => {
    share = (await create({ channel: 'att-a', model: 'share', rate: 30 })).body.data;
    perSignup = (await create({ channel: 'att-b', model: 'signup', rate: 2.5 })).body.data;
    perPayer = (await create({ channel: 'att-c', model: 'payer', rate: 15 })).body.data;
    const agentC = perPayer;
    // att-c's domain counts as its channel.
    await api.call('POST', '/app/admin/domain/domains/import', {
      token: admin,
      body: { text: 'att-c.example.com', role: 'channel' },
    });
    const dom = (await api.call('GET', '/app/admin/domain/domains?q=att-c', { token: admin })).body.data
      .list[0];
    await api.call('PUT', `${A}/${agentC.id}/domains`, { token: admin, body: { ids: [dom.id] } });
    await sendAll([
      // v1: first through att-a, later through att-b, signs up and pays: att-a's (first touch, 30-day window).
      event({ visitor: 'v1', channel: 'att-a', time: '2026-05-20T02:00:00Z' }),
      event({ visitor: 'v1', channel: 'att-b', time: '2026-05-23T02:00:00Z' }),
      event({ visitor: 'v1', type: 'signup', time: '2026-05-25T02:00:00Z' }),
      event({ visitor: 'v1', type: 'recharge', amount: 100, time: '2026-05-25T03:00:00Z' }),
      // v2: only att-b: two signups' worth of credit goes to att-b.
      event({ visitor: 'v2', channel: 'att-b', time: '2026-05-21T02:00:00Z' }),
      event({ visitor: 'v2', type: 'signup', time: '2026-05-21T02:05:00Z' }),
      event({ visitor: 'v3', channel: 'att-b', time: '2026-05-21T02:00:00Z' }),
      event({ visitor: 'v3', type: 'signup', time: '2026-05-21T02:10:00Z' }),
      // v4: through att-c's bound domain, no code; pays twice on two days: one new payer.
      event({ visitor: 'v4', domain: 'att-c.example.com', time: '2026-05-21T01:00:00Z' }),
      event({ visitor: 'v4', type: 'recharge', amount: 50, time: '2026-05-21T01:30:00Z' }),
      event({ visitor: 'v4', type: 'recharge', amount: 20, time: '2026-05-22T01:30:00Z' }),
      // v5: a signup with no touch at all: no agent.
      event({ visitor: 'v5', type: 'signup', time: '2026-05-21T05:00:00Z' }),
    ]);
    await rollup(api, admin);
  });

  test('first touch wins within the window; a bound domain counts as its channel', async () => {
    const a = await rowOf('att-a');
    expect(a).toMatchObject({
      id: share.id,
      signups: 1,
      payers: 1,
      recharges: 1,
      rechargeAmount: 100,
      visitors: 1,
    });
    // an agent without any figure still has its own id
    const idle = (await create({ channel: 'no-traffic' })).body.data;
    expect(await rowOf('no-traffic')).toMatchObject({ id: idle.id, signups: 0, commission: 0 });
    const b = await rowOf('att-b');
    expect(b).toMatchObject({ signups: 2, payers: 0, rechargeAmount: 0 });
    expect(b.visitors).toBe(3); // v1, v2, v3 came through it
    const c = await rowOf('att-c');
    expect(c).toMatchObject({ signups: 0, payers: 1, recharges: 2, rechargeAmount: 70, visitors: 1 });
  });

  test('commission per model, totals and ARPU', async () => {
    expect((await rowOf('att-a')).commission).toBe(30); // 30 % of 100
    expect((await rowOf('att-b')).commission).toBe(5); // 2 × 2.50
    expect((await rowOf('att-c')).commission).toBe(15); // one new payer × 15
    expect(commissionOf('share', 12.5, { signups: 0, payers: 0, rechargeAmount: 33.33 })).toBeCloseTo(
      4.166,
      3,
    );
    const a = await rowOf('att-a');
    expect(a.arpu).toBe(100);
    expect(a.conversion).toBe(1);
    const all = await stat({ from: '2026-05-05', to: '2026-05-31', q: 'att-' });
    expect(all.data.total).toBe(3);
    expect(all.data.totals).toMatchObject({ signups: 3, payers: 2, rechargeAmount: 170, commission: 50 });
    expect(all.data.list.map((r: { channel: string }) => r.channel)).toEqual(['att-a', 'att-c', 'att-b']);
    const may25 = all.data.series.find((d: { date: string }) => d.date === '2026-05-25');
    expect(may25).toMatchObject({ signups: 1, payers: 1, rechargeAmount: 100 });
  });

  test('a shorter window gives the credit to a later touch, or to no one', async () => {
    const settings = (await api.call('GET', '/app/admin/setting/statistics', { token: admin })).body.data;
    const save = (days: number, version: number) =>
      api.call('PUT', '/app/admin/setting/statistics', {
        token: admin,
        body: { version, attributionDays: days },
      });
    const saved = await save(3, settings.version);
    expect(saved.body.data.attributionDays).toBe(3);
    // Any event of the day has it rolled up again, under the new window.
    await sendAll([event({ visitor: 'v9', time: '2026-05-25T04:00:00Z' })]);
    await rollup(api, admin);
    expect((await rowOf('att-a')).signups).toBe(0);
    expect((await rowOf('att-b')).signups).toBe(3); // v1's touch of 05-23 is within three days of 05-25
    const back = await save(30, saved.body.data.version);
    expect(back.body.code).toBe(20000);
    await sendAll([event({ visitor: 'v9', time: '2026-05-25T04:30:00Z' })]);
    await rollup(api, admin);
    expect((await rowOf('att-a')).signups).toBe(1);
    expect((await save(0, back.body.data.version)).body.data.fields.attributionDays).toBeTruthy();
  });

  test('a touch that arrives late for an earlier day moves the credit of later days in the same rollup', async () => {
    await create({ channel: 'late-a' });
    await create({ channel: 'late-b' });
    const late = async (channel: string) => rowOf(channel, { from: '2026-05-06', to: '2026-05-09' });
    await sendAll([
      event({ visitor: 'v30', channel: 'late-b', time: '2026-05-07T02:00:00Z' }),
      event({ visitor: 'v30', type: 'signup', time: '2026-05-08T02:00:00Z' }),
      event({ visitor: 'v30', type: 'recharge', amount: 12, time: '2026-05-09T02:00:00Z' }),
    ]);
    await rollup(api, admin);
    expect(await late('late-b')).toMatchObject({ signups: 1, payers: 1, rechargeAmount: 12 });
    // Only 05-06 has a new event: its rollup marks 05-08 and 05-09, whose conversions v30 made.
    await sendAll([event({ visitor: 'v30', channel: 'late-a', time: '2026-05-06T02:00:00Z' })]);
    await rollup(api, admin);
    expect(await late('late-a')).toMatchObject({ signups: 1, payers: 1, rechargeAmount: 12 });
    expect(await late('late-b')).toMatchObject({ signups: 0, payers: 0, rechargeAmount: 0, visitors: 1 });
  });

  test('one agent day by day, every day of the period', async () => {
    const r = await api.call('GET', `${S}/daily?agentId=${share.id}&from=2026-05-19&to=2026-05-26`, {
      token: user,
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data.list).toHaveLength(8);
    const day = r.body.data.list.find((d: { key: string }) => d.key === '2026-05-25');
    expect(day).toMatchObject({ signups: 1, rechargeAmount: 100, commission: 30, settlementId: null });
    expect(r.body.data.totals.visitors).toBe(1);
    expect(r.body.data.series).toHaveLength(8);
    expect(r.body.data.series[6]).toMatchObject({ date: '2026-05-25', signups: 1, commission: 30 });
  });

  test('settling freezes the days; later events are reported apart, never added', async () => {
    const settle = (body: Record<string, unknown>, token = admin) =>
      api.call('POST', `${S}/${share.id}/settlements`, { token, body });
    expect((await settle({ from: '2026-05-20', to: '2026-05-26' }, user)).body.code).toBe(40300);
    const open = await settle({ from: '2026-05-20', to: '2026-06-01' });
    expect(open.body.code).toBe(40000);
    expect(open.body.data.fields.to).toBeTruthy();
    const done = await settle({ from: '2026-05-20', to: '2026-05-26', note: 'May, week 4' });
    expect(done.body.code).toBe(20000);
    expect(done.body.data).toMatchObject({
      signups: 1,
      rechargeAmount: 100,
      commission: 30,
      model: 'share',
      rate: 30,
    });
    const overlap = await settle({ from: '2026-05-26', to: '2026-05-28' });
    expect(overlap.body.code).toBe(40900);
    expect(overlap.body.msg).toContain('2026-05-20');

    // A late recharge of v1 for a settled day, and a new rate: the settled figures and commission stay.
    await sendAll([event({ visitor: 'v1', type: 'recharge', amount: 40, time: '2026-05-24T05:00:00Z' })]);
    await rollup(api, admin);
    const agent = (await api.call('GET', `${A}/${share.id}`, { token: admin })).body.data;
    await api.call('PUT', `${A}/${share.id}`, { token: admin, body: { rate: 50, version: agent.version } });
    const a = await rowOf('att-a');
    expect(a).toMatchObject({ rechargeAmount: 100, settled: 30, unsettled: 0, commission: 30 });
    expect(a.late).toMatchObject({ recharges: 1, rechargeAmount: 40 });
    // An unsettled day after the settled period counts at the new rate.
    await sendAll([event({ visitor: 'v1', type: 'recharge', amount: 10, time: '2026-05-28T05:00:00Z' })]);
    await rollup(api, admin);
    const after = await rowOf('att-a');
    expect(after).toMatchObject({ rechargeAmount: 110, settled: 30, unsettled: 5, commission: 35 });
    const day = (
      await api.call('GET', `${S}/daily?agentId=${share.id}&from=2026-05-24&to=2026-05-24`, { token: admin })
    ).body.data.list[0];
    expect(day).toMatchObject({ rechargeAmount: 0, settlementId: done.body.data.id });
    expect(day.late.rechargeAmount).toBe(40);
    const list = (await api.call('GET', `${S}/${share.id}/settlements`, { token: user })).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ from: '2026-05-20', to: '2026-05-26', note: 'May, week 4' });
    // A settled agent is kept: it can be disabled, not deleted.
    expect((await api.call('DELETE', `${A}/${share.id}`, { token: admin })).body.code).toBe(40900);
    expect(perSignup.id).toBeGreaterThan(0);
  });

  test('bad stat queries are field errors', async () => {
    expect((await stat({ from: '2026-05-10', to: '2026-05-01' })).data.fields.to).toBeTruthy();
    expect((await stat({ sort: 'bogus' })).data.fields.sort).toBeTruthy();
    expect((await stat({ from: '2026-02-30' })).data.fields.from).toBeTruthy();
    expect((await api.call('GET', `${S}/daily?agentId=999999`, { token: admin })).body.code).toBe(40400);
    expect((await api.call('GET', `${S}/daily`, { token: admin })).body.data.fields.agentId).toBeTruthy();
  });
});

describe('traffic quality', () => {
  test('flags with the figures behind them', async () => {
    for (const ch of ['q-farm', 'q-good', 'q-mid', 'q-dev', 'q-late']) await create({ channel: ch });
    const signups = (ch: string, n: number, over: (i: number) => Record<string, unknown>) =>
      Array.from({ length: n }, (_, i) =>
        event({
          type: 'signup',
          channel: ch,
          time: '2026-05-10T03:00:00Z',
          visitor: `${ch}-${i}`,
          ip: `10.9.${i}.1`,
          ...over(i),
        }),
      );
    const back = (ch: string, n: number) =>
      Array.from({ length: n }, (_, i) => event({ visitor: `${ch}-${i}`, time: '2026-05-17T03:00:00Z' }));
    await sendAll([
      ...signups('q-farm', 20, () => ({ ip: '10.8.8.8' })),
      ...signups('q-good', 20, () => ({})),
      ...signups('q-mid', 20, () => ({})),
      ...signups('q-dev', 20, (i) => ({ visitor: `q-dev-${i % 2}` })),
      ...back('q-good', 20),
      ...back('q-mid', 10),
      ...back('q-dev', 2),
      // Signups in the period's last week, after the last matured day (05-24: a week before today, 06-01, less one).
      ...signups('q-late', 5, () => ({ time: '2026-05-28T03:00:00Z' })),
    ]);
    await rollup(api, admin);
    const farm = await rowOf('q-farm');
    expect(farm.quality).toMatchObject({
      signups: 20,
      sharedAddress: 20,
      matured: 20,
      idle: 20,
      retained: 0,
    });
    expect(farm.quality.flags).toEqual(['sharedAddress', 'idle', 'retention']);
    const good = await rowOf('q-good');
    expect(good.quality).toMatchObject({ retained: 20, idle: 0, flags: [] });
    const mid = await rowOf('q-mid');
    expect(mid.quality).toMatchObject({ retained: 10, idle: 10, flags: [] });
    // They count among the signups, not among the matured ones, nor their idle accounts.
    expect((await rowOf('q-late')).quality).toMatchObject({ signups: 5, matured: 0, idle: 0, retained: 0 });
    const dev = await rowOf('q-dev');
    expect(dev.quality.sharedDevice).toBe(20);
    expect(dev.quality.flags).toContain('sharedDevice');
    const body = await stat({ from: '2026-05-05', to: '2026-05-31', flagged: 'true', q: 'q-' });
    expect(body.data.list.map((r: { channel: string }) => r.channel).sort()).toEqual(['q-dev', 'q-farm']);
    expect(body.data.siteRetention).toBe(0.75); // the median of 0, 0.5, 1 and 1
  });

  test('the flag rules on their own', () => {
    const base = { signups: 40, sharedAddress: 0, sharedDevice: 0, matured: 40, idle: 0, retained: 20 };
    expect(qualityFlags(base, 0.5)).toEqual([]);
    expect(qualityFlags({ ...base, sharedAddress: 9 }, 0.5)).toEqual(['sharedAddress']);
    expect(qualityFlags({ ...base, retained: 9 }, 0.5)).toEqual(['retention']);
    expect(qualityFlags({ ...base, idle: 33 }, null)).toEqual(['idle']);
    expect(
      qualityFlags({ ...base, signups: 19, matured: 19, sharedAddress: 19, idle: 19, retained: 0 }, 0.5),
    ).toEqual([]);
  });
});
