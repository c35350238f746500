import { expect, test } from 'vitest';
import { DayFold } from '../../server/modules/statistics/day-figures';
import {
  keepFold,
  keptFold,
  keptVisitors,
  MAX_KEPT_VISITORS,
} from '../../server/modules/statistics/kept-folds';

/**
 * Issue #48: the folds a runner keeps between runs (today's and yesterday's) held about a kilobyte per distinct
 * visitor, without limit: anyone with the browser key could push the process out of memory. Their visitors are now
 * capped in all (MAX_KEPT_VISITORS); a fold past the cap is not kept (its day's next rollup reads it whole).
 */
const fed = (day: string, visitors: number) => {
  const fold = new DayFold(2, day, 'Asia/Shanghai');
  for (let i = 0; i < visitors; i++) fold.site.visitors.set(`${day}-v${i}`, 1);
  return fold;
};

test('the kept folds stay under their cap, whatever the visitors fed', () => {
  const db = {};
  expect(keepFold(db, '2|2026-06-01', fed('2026-06-01', 300), 500)).toBe(true);
  expect(keepFold(db, '2|2026-06-02', fed('2026-06-02', 300), 500)).toBe(false);
  expect(keptFold(db as never, 2, '2026-06-02')).toBeUndefined();
  expect(keptVisitors(db)).toBe(300);
  // The same day kept again replaces itself: its own visitors do not count twice.
  expect(keepFold(db, '2|2026-06-01', fed('2026-06-01', 450), 500)).toBe(true);
  expect(keptVisitors(db)).toBe(450);
  // Grown past the cap, the day's fold is let go rather than kept as it was.
  expect(keepFold(db, '2|2026-06-01', fed('2026-06-01', 501), 500)).toBe(false);
  expect(keptVisitors(db)).toBe(0);

  const busy = {};
  expect(keepFold(busy, '2|2026-06-03', fed('2026-06-03', MAX_KEPT_VISITORS + 1))).toBe(false);
  expect(keptVisitors(busy)).toBe(0);
  expect(keptVisitors(busy)).toBeLessThanOrEqual(MAX_KEPT_VISITORS);
});
