import { expect, test } from 'vitest';
import { DayFold } from '../../server/modules/statistics/day-figures';
import { keepFold, keptFold, keptKeys, MAX_KEPT_KEYS } from '../../server/modules/statistics/kept-folds';

/**
 * Issue #48: the folds a runner keeps between runs (today's and yesterday's) grew without limit with what anyone
 * holding the browser key sends. They hold nothing per visitor (tests/api/stats-fold-bound.test.ts); their keys
 * (keywords, paths, objects…) are capped in all (MAX_KEPT_KEYS); a fold past the cap is not kept (its day's next
 * rollup reads it whole).
 */
const fed = (day: string, keys: number) => {
  const fold = new DayFold(2, day, 'Asia/Shanghai');
  for (let i = 0; i < keys; i++) fold.keywords.set(`${day}-k${i}`, {} as never);
  return fold;
};

test('the kept folds stay under their cap, whatever the keys fed', () => {
  const db = {};
  expect(keepFold(db, '2|2026-06-01', fed('2026-06-01', 300), 500)).toBe(true);
  expect(keepFold(db, '2|2026-06-02', fed('2026-06-02', 300), 500)).toBe(false);
  expect(keptFold(db as never, 2, '2026-06-02')).toBeUndefined();
  expect(keptKeys(db)).toBe(300);
  // The same day kept again replaces itself: its own visitors do not count twice.
  expect(keepFold(db, '2|2026-06-01', fed('2026-06-01', 450), 500)).toBe(true);
  expect(keptKeys(db)).toBe(450);
  // Grown past the cap, the day's fold is let go rather than kept as it was.
  expect(keepFold(db, '2|2026-06-01', fed('2026-06-01', 501), 500)).toBe(false);
  expect(keptKeys(db)).toBe(0);

  const busy = {};
  expect(keepFold(busy, '2|2026-06-03', fed('2026-06-03', MAX_KEPT_KEYS + 1))).toBe(false);
  expect(keptKeys(busy)).toBe(0);
  expect(keptKeys(busy)).toBeLessThanOrEqual(MAX_KEPT_KEYS);
});
