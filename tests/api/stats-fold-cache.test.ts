import { expect, test } from 'vitest';
import { DayFold } from '../../server/modules/statistics/day-figures';
import type { EventRow } from '../../server/modules/statistics/events';
import {
  cachedFold,
  cachedKeys,
  cacheFold,
  MAX_CACHED_KEYS,
} from '../../server/modules/statistics/fold-cache';

/**
 * Issue #48: the folds a runner keeps between runs (today's and yesterday's) grew without limit with what anyone
 * holding the browser key sends. They hold nothing per visitor (tests/api/stats-fold-bound.test.ts); their keys
 * (keywords, paths, objects…) are capped in all (MAX_CACHED_KEYS); a fold past the cap is not kept (its day's next
 * rollup reads it whole).
 */
/** An event as the ingestion stores it (hashed, its registers set), for a fold to take (`DayFold.stored`). */
const row = (day: string, over: Partial<EventRow>): EventRow => ({
  day,
  id: 'e',
  type: 'pageview',
  at: `${day}T04:00:00.000Z`,
  ms: Date.parse(`${day}T04:00:00.000Z`),
  domain: 'a.test',
  path: '/',
  referrer: '',
  device: 'desktop',
  browser: '',
  os: '',
  country: '',
  province: '',
  address: '10.0.0.1',
  visitor: 'v',
  channel: '',
  objectType: '',
  objectId: 0,
  keyword: '',
  results: null,
  amount: null,
  visitorHash: '1',
  visitorReg: 1,
  addressHash: '2',
  addressReg: 2,
  ...over,
});

/** A fold of `keys` keys (at least 2): searches of distinct keywords, beside the keywords' total and the channel ''. */
const fed = (day: string, keys: number) => {
  const fold = new DayFold(2, day, 'Asia/Shanghai');
  const rows = Array.from({ length: keys - 2 }, (_, i) =>
    row(day, { type: 'search', keyword: `${day}-k${i}`, results: 1 }),
  );
  fold.stored(1, rows);
  return fold;
};

test('a fold counts its keys as it folds them: the sum of its maps’ entries', () => {
  const fold = new DayFold(2, '2026-06-01', 'Asia/Shanghai');
  const day = '2026-06-01';
  fold.stored(1, [
    row(day, { domain: 'a.test', path: '/a', referrer: 'x.test', channel: 'agent1' }),
    row(day, { domain: 'b.test', path: '/a', device: 'mobile', country: '中国', province: '广东' }),
    row(day, { domain: 'b.test', path: '/b', objectType: 'movie', objectId: 7 }),
    row(day, { type: 'play', objectType: 'movie', objectId: 7, channel: 'agent2' }),
    row(day, { type: 'search', keyword: 'love', results: 0 }),
    row(day, { type: 'ad_click', objectType: 'ad', objectId: 3 }),
  ]);
  fold.stored(2, [row(day, { domain: 'a.test', path: '/c' }), row(day, { type: 'search', keyword: 'love' })]);
  let walked = fold.keywords.size + fold.channels.size + fold.traffic.size;
  for (const byId of fold.objects.values()) walked += byId.size;
  for (const dom of fold.domains.values()) for (const m of dom.visits) walked += m.size;
  expect(walked).toBeGreaterThan(20);
  expect(fold.size).toBe(walked);
});

test('the kept folds stay under their cap, whatever the keys fed', () => {
  const db = {};
  expect(cacheFold(db, '2|2026-06-01', fed('2026-06-01', 300), 500)).toBe(true);
  expect(cacheFold(db, '2|2026-06-02', fed('2026-06-02', 300), 500)).toBe(false);
  expect(cachedFold(db as never, 2, '2026-06-02')).toBeUndefined();
  expect(cachedKeys(db)).toBe(300);
  // The same day kept again replaces itself: its own visitors do not count twice.
  expect(cacheFold(db, '2|2026-06-01', fed('2026-06-01', 450), 500)).toBe(true);
  expect(cachedKeys(db)).toBe(450);
  // Grown past the cap, the day's fold is let go rather than kept as it was.
  expect(cacheFold(db, '2|2026-06-01', fed('2026-06-01', 501), 500)).toBe(false);
  expect(cachedKeys(db)).toBe(0);

  const busy = {};
  expect(cacheFold(busy, '2|2026-06-03', fed('2026-06-03', MAX_CACHED_KEYS + 1))).toBe(false);
  expect(cachedKeys(busy)).toBe(0);
  expect(cachedKeys(busy)).toBeLessThanOrEqual(MAX_CACHED_KEYS);
});
