import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dayOf } from '../../common/period';
import { EventInput, eventClock, fastEvent, timeOf } from '../../server/modules/statistics/events';

/**
 * Issue #12: the ingestion's fast check (`fastEvent`) accepts only what the schema accepts, with the same value
 * (trimmed, the domain lower-cased); whatever it declines goes through zod for the exact errors.
 */
const str = (...good: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: 12 },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
    { arbitrary: fc.constantFrom('', ' ', '  x  ', 'x'.repeat(70), null, 3, undefined), weight: 1 },
  );
const arbRaw = fc
  .record(
    {
      id: str('evt-00000001', 'a.b:c_d-12345678', 'short'),
      type: fc.constantFrom('pageview', 'pageview', 'play', 'search', 'recharge', 'ad_click', 'nope', 7),
      time: str('2026-06-01T10:00:00Z', '2026-06-01T10:00:00+08:00', '2026-06-01', '2026-13-45T00:00:00Z'),
      domain: str('a.test', ' A.Test ', 'a.test:8080', 'a_b.test', 'İ.test'),
      path: str('/', ' /x ', 'x', '/p?q=1#h'),
      referrer: str('https://r.test/x', ''),
      ua: str('Mozilla/5.0'),
      ip: str('1.2.3.4', ' ::1 ', '1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23'),
      visitor: str('v1', ' v2 '),
      channel: str('agent1', ' ', 'c'.repeat(65)),
      object: fc.oneof(
        {
          arbitrary: fc.record({ type: fc.constantFrom('movie', 'ad'), id: fc.integer({ min: 1, max: 9 }) }),
          weight: 12,
        },
        fc.record({ type: fc.constantFrom('movie', 'ad', 'bad'), id: fc.oneof(fc.integer(), fc.double()) }),
        fc.constantFrom(null, 'x', { type: 'movie', id: 1, extra: 2 }, { type: 'movie' }),
      ),
      keyword: str('love', ' War '),
      results: fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: 5 }), weight: 12 },
        fc.integer({ min: -2, max: -1 }),
        fc.double(),
        fc.constantFrom(2_147_483_648, '3'),
      ),
      amount: fc.oneof(
        { arbitrary: fc.constantFrom(0, 12.5, 30), weight: 12 },
        fc.double({ min: -1, max: 1e13 }),
        fc.constantFrom(Number.NaN, '1'),
      ),
    },
    { requiredKeys: ['id', 'type', 'time', 'domain', 'path', 'visitor'] },
  )
  .chain((r) => fc.constantFrom(r, r, r, { ...r, extra: 1 }));

describe('the fast event check', () => {
  test('never accepts what the schema refuses, and gives the same value', () => {
    let fast = 0;
    fc.assert(
      fc.property(arbRaw, (raw) => {
        const got = fastEvent(raw);
        if (got === undefined) return;
        fast++;
        const want = EventInput.safeParse(raw);
        expect(want.success).toBe(true);
        expect(got).toEqual(want.data);
      }),
      { numRuns: 5000 },
    );
    expect(fast).toBeGreaterThan(20); // about 70 of the 5,000 pass every rule
  });

  test('takes the fast path for the events sites send', () => {
    const events = [
      {
        id: 'evt-00000001',
        type: 'pageview',
        time: '2026-06-01T10:00:00Z',
        domain: 'A.test',
        path: '/',
        visitor: 'v',
      },
      {
        id: 'evt-00000002',
        type: 'search',
        time: '2026-06-01T10:00:00.000Z',
        domain: 'a.test',
        path: '/s',
        visitor: 'v',
        keyword: ' Love ',
        results: 0,
        ua: 'Mozilla/5.0',
        ip: '1.2.3.4',
        referrer: 'https://r.test/',
        channel: 'agent1',
      },
      {
        id: 'evt-00000003',
        type: 'recharge',
        time: '2026-06-01T10:00:00Z',
        domain: 'a.test',
        path: '/pay',
        visitor: 'v',
        amount: 30,
        object: { type: 'ad', id: 4 },
      },
    ];
    for (const e of events) expect(fastEvent(e)).toEqual(EventInput.parse(e));
    expect(fastEvent({ ...events[1], keyword: '  ' })).toBeUndefined();
    expect(fastEvent({ ...events[2], amount: undefined })).toBeUndefined();
  });
});

describe("an event's time", () => {
  test('is worked out once per second, and is what toISOString and the zone’s calendar say, to the ms', () => {
    const zones = ['Asia/Shanghai', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];
    const clocks = new Map(zones.map((z) => [z, eventClock(z)]));
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        // 1900–2100, around the seconds a day or a clock change starts on
        fc.oneof(
          fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 }),
          fc.integer({ min: 0, max: 999 }),
        ),
        (zone, ms) => {
          // the same clock for many times, as a batch's: a second's cached text must serve each ms of it
          for (const at of [ms, ms + 1, ms + 999, ms - 1, Math.floor(ms / 1000) * 1000]) {
            const t = clocks.get(zone)!(at);
            expect(t).toEqual({ day: dayOf(new Date(at), zone), ms: at, iso: new Date(at).toISOString() });
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('parses a time once for its check and its use, whatever came between', () => {
    const a = '2026-06-01T10:00:00.123Z';
    expect(timeOf(a)).toBe(Date.parse(a));
    expect(timeOf('2026-06-01T10:00:00+08:00')).toBe(Date.parse('2026-06-01T02:00:00Z'));
    expect(timeOf(a)).toBe(Date.parse(a));
    expect(timeOf('2026-13-45T00:00:00Z')).toBeNaN();
  });
});
