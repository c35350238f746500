import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDays } from '../../common/period';
import { allAgentsStat } from '../../server/modules/agents/stat';
import { startApi, type TestApi } from './harness';
import { event, rollup, siteSender, watchedDb } from './stats-helpers';

/**
 * Issue #16: the all-agents stat keeps what a period's older days give between reads (agents/period-figures.ts). Its
 * answer must be the one read from every piece, through any sequence of rollups: of today (every minute), of
 * yesterday (late events, which also rewrite idle and retained counts of the week before), of an older day (a stamp
 * the kept parts depend on moves), and signups whose return visits change earlier days.
 */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;
const TODAY = '2026-06-01'; // the harness clock, 08:00 UTC: 16:00 in Asia/Shanghai

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
  const ids: Record<string, number> = {};
  for (const channel of ['kp-a', 'kp-b', 'kp-c'])
    ids[channel] = (
      await api.call('POST', '/app/admin/agents', {
        token: admin,
        body: { name: `agent ${channel}`, channel, model: 'share', rate: 10 },
      })
    ).body.data.id;
  // Settled periods: one among the older days, one among the last week's (later events for them are "late").
  const early = [20, 19, 15, 6, 4, 3].flatMap((d, i) => [
    event({ visitor: `kp-s${i}`, channel: i < 3 ? 'kp-a' : 'kp-b', time: `${addDays(TODAY, -d)}T02:00:00Z` }),
    event({ visitor: `kp-s${i}`, type: 'signup', time: `${addDays(TODAY, -d)}T02:10:00Z` }),
    event({ visitor: `kp-s${i}`, type: 'recharge', amount: 30, time: `${addDays(TODAY, -d)}T02:20:00Z` }),
  ]);
  expect((await send(early)).body.data.rejected).toEqual([]);
  await rollup(api, admin);
  for (const [channel, from, to] of [
    ['kp-a', -20, -12],
    ['kp-b', -6, -2],
  ] as const) {
    const r = await api.call('POST', `/app/admin/agents/stat/${ids[channel]}/settlements`, {
      token: admin,
      body: { from: addDays(TODAY, from), to: addDays(TODAY, to) },
    });
    expect(r.body.code).toBe(20000);
  }
});
afterAll(() => api?.close());

const read = (from: string, keep: boolean) =>
  allAgentsStat(api.database.db, { tenant: 2, period: { from, to: TODAY }, today: TODAY }, { cache: keep });

test('the kept reading equals reading every piece, through rollups of today, yesterday and older days', async () => {
  const day = fc.integer({ min: 0, max: 28 }); // days before today (the endpoint takes 30 days back)
  const ev = fc.record({
    daysBefore: day,
    visitor: fc.integer({ min: 0, max: 60 }),
    channel: fc.constantFrom('kp-a', 'kp-b', 'kp-c', 'kp-none', ''),
    type: fc.constantFrom('pageview', 'pageview', 'pageview', 'signup', 'recharge'),
  });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(ev, { minLength: 1, maxLength: 25 }), { minLength: 2, maxLength: 4 }),
      async (batches) => {
        run++;
        for (const batch of batches) {
          const r = await send(
            batch.map((e, i) =>
              event({
                id: `kp-${run}-${i}-${Math.random().toString(36).slice(2)}`,
                type: e.type,
                visitor: `kp-v${e.visitor}`,
                ...(e.channel ? { channel: e.channel } : {}),
                ...(e.type === 'recharge' ? { amount: 12.34 } : {}),
                time: `${addDays(TODAY, -e.daysBefore)}T03:00:00Z`,
              }),
            ),
          );
          expect(r.body.data.rejected).toEqual([]);
          await rollup(api, admin);
          for (const from of [addDays(TODAY, -29), addDays(TODAY, -6), addDays(TODAY, -1)]) {
            const kept = await read(from, true);
            const again = await read(from, true); // served from what the first read kept
            const whole = await read(from, false);
            expect(kept).toEqual(whole);
            expect(again).toEqual(whole);
          }
        }
      },
    ),
    { numRuns: 6 },
  );
  // The property saw traffic: some agent has visitors and signups over the month.
  const month = await read(addDays(TODAY, -29), true);
  expect(month.list.some((r) => r.visitors > 0)).toBe(true);
  expect(month.list.filter((r) => r.settled > 0).map((r) => r.channel)).toEqual(['kp-a', 'kp-b']);
});

test('a rollup of today or of yesterday leaves the older days kept: the next read reads only the last days (today alone after a rollup of today)', async () => {
  const from = addDays(TODAY, -29);
  const { db, seen } = watchedDb(api.database.db);
  // Kept parts are kept per database handle: this one, which records the statements.
  await allAgentsStat(db, { tenant: 2, period: { from, to: TODAY }, today: TODAY }, { cache: true });
  for (const daysBefore of [0, 1]) {
    const r = await send([
      event({
        visitor: `kp-late${daysBefore}`,
        channel: 'kp-a',
        time: `${addDays(TODAY, -daysBefore)}T04:00:00Z`,
      }),
    ]);
    expect(r.body.data.accepted).toBe(1);
    await rollup(api, admin);
    seen.length = 0;
    const kept = await allAgentsStat(
      db,
      { tenant: 2, period: { from, to: TODAY }, today: TODAY },
      { cache: true },
    );
    expect(seen.some((s) => s.sql.includes("'o' as part"))).toBe(false); // no older day's sketch read again
    // yesterday's sketches (kept apart) only after a rollup of yesterday
    expect(seen.some((s) => s.sql.includes("'y' as part"))).toBe(daysBefore === 1);
    expect(seen.some((s) => s.sql.includes("'o') as o0"))).toBe(false); // nor their sums
    expect(kept).toEqual(await read(from, false));
  }
  // A rollup of an older day: the next read reads the older days again.
  await send([event({ visitor: 'kp-late9', channel: 'kp-a', time: `${addDays(TODAY, -12)}T04:00:00Z` })]);
  await rollup(api, admin);
  seen.length = 0;
  await allAgentsStat(db, { tenant: 2, period: { from, to: TODAY }, today: TODAY }, { cache: true });
  expect(seen.some((s) => s.sql.includes("'o' as part"))).toBe(true);
});
