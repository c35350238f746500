import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isDatabaseUnavailable, isPassing, rootMessage } from '../../server/core/db-errors';
import {
  RollupPace,
  RollupStuck,
  rawPartitions,
  runRollup,
  type StuckDay,
} from '../../server/modules/statistics/rollup';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { event, siteSender } from './stats-helpers';

/**
 * Issue #48: a day whose rollup fails for a reason retrying will not fix is set aside with its error (`stat_rolled_days.error`),
 * the other days still roll up, the admin is told in words other than "database unavailable" and sees the day on
 * the statistics settings screen's route, and its raw events outlive the retention until it rolls up.
 */
let api: TestApi;
let admin: string;
let user: string;
let send: Awaited<ReturnType<typeof siteSender>>;

const BAD = '2026-05-30';
const GOOD = '2026-05-31';
const at = (day: string) => `${day}T04:00:00Z`; // noon in Shanghai
const partition = (day: string) => `stat_events_p${day.replace(/-/g, '')}`;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'viewer' });
  user = await api.login('viewer', USER_PASSWORD);
  send = await siteSender(api, admin);
  const settings = (await api.call('GET', '/app/admin/setting/statistics', { token: admin })).body.data;
  const saved = await api.call('PUT', '/app/admin/setting/statistics', {
    token: admin,
    body: { ...settings, tenant: undefined, rawRetentionDays: 3 },
  });
  expect(saved.body.code).toBe(20000);
  const r = await send([
    event({ time: at(BAD), domain: 'bad.test', visitor: 'b1' }),
    event({ time: at(GOOD), domain: 'good.test', visitor: 'g1' }),
  ]);
  expect(r.body.data.accepted).toBe(2);
  // A failure no retry fixes, on one day only: a constraint the day's rows break.
  await api.query(
    sql.raw(`alter table stat_domain_daily add constraint zg_test_stuck check (day <> '${BAD}')`),
  );
});
afterAll(() => api?.close());

const siteViews = async (day: string) =>
  (
    await api.query<{ n: number }>(
      sql`select page_views as n from stat_domain_daily where day = ${day}::date and domain = ''`,
    )
  ).map((x) => Number(x.n));

describe('a stuck day', () => {
  test('is set aside with its error; the other days roll up; the admin is told in both languages', async () => {
    const zh = await api.call('POST', '/app/admin/stats/rollup', { token: admin });
    expect(zh.status).toBe(200);
    expect(zh.body.code).toBe(42200);
    expect(zh.body.msg).toContain(BAD);
    expect(zh.body.msg).toContain('重试也无法解决');
    expect(zh.body.msg).not.toContain('数据库暂时不可用');
    expect(zh.body.data).toMatchObject({ ran: true, days: 1 });
    expect(zh.body.data.stuck).toEqual([
      {
        day: BAD,
        error: expect.stringContaining('zg_test_stuck'),
        failedAt: expect.any(String),
        attempts: 1,
      },
    ]);
    expect(await siteViews(GOOD)).toEqual([1]);
    expect(await siteViews(BAD)).toEqual([]);

    const en = await api.call('POST', '/app/admin/stats/rollup', {
      token: admin,
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(en.body.code).toBe(42200);
    expect(en.body.msg).toContain('retrying will not fix it');
    expect(en.body.msg).toContain(BAD);

    const list = await api.call('GET', '/app/admin/stats/stuck', { token: admin });
    expect(list.body.data.list).toEqual([
      {
        day: BAD,
        error: expect.stringContaining('zg_test_stuck'),
        failedAt: expect.any(String),
        attempts: 2,
      },
    ]);
    expect((await api.call('GET', '/app/admin/stats/stuck', { token: user })).body.code).toBe(40300);
    expect((await api.call('POST', '/app/admin/stats/rollup', { token: user })).body.code).toBe(40300);
  });

  test("the timer leaves a stuck day for its backoff while the other days' batches roll up", async () => {
    await send([event({ time: at(GOOD), domain: 'good.test', visitor: 'g2' })]);
    const [{ failed }] = await api.query<{ failed: string }>(
      sql`select failed_at::text as failed from stat_rolled_days where day = ${BAD}::date`,
    );
    const soon = new Date(Date.parse(failed) + 60_000); // attempt 2: two minutes' backoff
    const r = await runRollup(api.database.db, { now: soon, defaultTenant: 2, pace: new RollupPace() });
    expect(r.days.map((d) => d.day)).toEqual([GOOD]);
    expect(r.stuck).toEqual([]);
    expect(r.deferred.map((d) => d.day)).toEqual([BAD]);
    // Once its backoff is over it is tried again, fails again: the run says so (not as "database unavailable").
    const later = new Date(Date.parse(failed) + 3 * 60_000);
    const again = await runRollup(api.database.db, {
      now: later,
      defaultTenant: 2,
      pace: new RollupPace(),
    }).catch((err) => err);
    expect(again).toBeInstanceOf(RollupStuck);
    expect(again.message).toContain('zg_test_stuck');
    expect(again.result.stuck.map((d: StuckDay) => [d.day, d.attempts])).toEqual([[BAD, 3]]);
  });

  test('keeps its raw events past the retention until it rolls up; then they go', async () => {
    api.clock.set(new Date('2026-06-06T08:00:00Z')); // both days past the three days kept
    const stuck = await api.call('POST', '/app/admin/stats/rollup', { token: admin });
    expect(stuck.body.code).toBe(42200);
    expect(stuck.body.data.droppedPartitions).toBe(1);
    expect((await rawPartitions(api.database.db)).map((p) => p.name)).toEqual([partition(BAD)]);
    expect(
      (await api.query<{ n: number }>(sql.raw(`select count(*)::int as n from ${partition(BAD)}`)))[0].n,
    ).toBe(1);

    // Fixed (here: the constraint goes), the admin retries: the day rolls up, leaves the list, and its raw day goes.
    await api.query(sql`alter table stat_domain_daily drop constraint zg_test_stuck`);
    const ok = await api.call('POST', '/app/admin/stats/rollup', { token: admin });
    expect(ok.body).toMatchObject({ code: 20000, data: { ran: true, days: 1, droppedPartitions: 1 } });
    expect(await siteViews(BAD)).toEqual([1]);
    expect((await api.call('GET', '/app/admin/stats/stuck', { token: admin })).body.data.list).toEqual([]);
    expect(await rawPartitions(api.database.db)).toEqual([]);
  });
});

describe('which failures pass', () => {
  const withState = (code: string) => Object.assign(new Error('x'), { code });
  test('a lost connection, a serialization failure, a deadlock and a lock wait pass; the rest do not', () => {
    for (const code of ['57P01', '08006', '40001', '40P01', '55P03'])
      expect(isPassing(withState(code))).toBe(true);
    for (const code of ['23514', '42703', '54000', '08P01']) expect(isPassing(withState(code))).toBe(false);
    // A bind message the server refuses is not "database unavailable": sent again, it is refused again.
    expect(isDatabaseUnavailable(withState('08P01'))).toBe(false);
    expect(isPassing(new RangeError('Maximum call stack size exceeded'))).toBe(false);
  });
  test("the error recorded is the innermost message, not Drizzle's statement, and bounded", () => {
    const inner = Object.assign(new Error('check constraint violated'), { code: '23514' });
    const wrapped = new Error(`Failed query: insert ${'x'.repeat(10_000)}`, { cause: inner });
    expect(rootMessage(wrapped)).toBe('check constraint violated');
    expect(rootMessage(new Error('y'.repeat(10_000))).length).toBe(500);
  });
});
