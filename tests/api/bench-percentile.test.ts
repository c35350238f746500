import { expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { percentile, stats } from '../../bench/_timing.mjs';

/** The benches' percentiles are by nearest rank: of 20 reads the p95 is the 19th smallest, not the slowest. */
test('percentile: the smallest figure at least p % of them do not exceed', () => {
  const twenty = Array.from({ length: 20 }, (_, i) => 20 - i); // 20 … 1, unsorted on purpose
  expect(percentile(twenty, 95)).toBe(19);
  expect(percentile(twenty, 100)).toBe(20);
  expect(percentile(twenty, 50)).toBe(10);
  expect(percentile([3, 1, 2], 50)).toBe(2);
  expect(percentile([4, 1, 3, 2], 50)).toBe(2);
  expect(percentile([7], 99)).toBe(7);
  expect(percentile([1, 2], 0)).toBe(1);
  expect(twenty[0]).toBe(20); // the figures are left as they were
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  expect(stats(hundred)).toEqual({ p50: 50, p95: 95, p99: 99 });
});
