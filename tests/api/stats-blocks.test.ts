import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addDays, eachDay } from '../../common/period';
import { blockStart, cover, dayNumber, MAX_LEVEL } from '../../server/modules/statistics/blocks';

/** Issue #12: the aligned blocks a report merges cover its period exactly, with few pieces. */
describe('aligned blocks of days', () => {
  test('cover a period exactly, each aligned on its size, in at most 2·log2(days) + 2 pieces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 366 }), (offset, n) => {
        const from = addDays('2020-01-01', offset);
        const to = addDays(from, n - 1);
        const pieces = cover(from, to);
        const days = pieces.flatMap((p) => eachDay(p.start, addDays(p.start, 2 ** p.level - 1)));
        expect(days).toEqual(eachDay(from, to));
        for (const p of pieces) {
          expect(p.level).toBeLessThanOrEqual(MAX_LEVEL);
          expect(dayNumber(p.start) % 2 ** p.level).toBe(0);
          expect(blockStart(p.start, p.level)).toBe(p.start);
        }
        expect(pieces.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 1)) + 2);
      }),
    );
  });

  test('a day belongs to the block of each level that starts at or before it, within its size', () => {
    expect(blockStart('1970-01-01', 3)).toBe('1970-01-01');
    expect(blockStart('1970-01-08', 3)).toBe('1970-01-01');
    expect(blockStart('1970-01-09', 3)).toBe('1970-01-09');
    expect(blockStart('1969-12-31', 1)).toBe('1969-12-30');
    for (const day of ['2026-02-28', '2026-03-01', '2024-02-29'])
      for (let level = 0; level <= MAX_LEVEL; level++) {
        const start = blockStart(day, level);
        expect(dayNumber(day) - dayNumber(start)).toBeGreaterThanOrEqual(0);
        expect(dayNumber(day) - dayNumber(start)).toBeLessThan(2 ** level);
      }
    // a 90-day report merges about a dozen sketches per row instead of 90
    expect(cover('2026-08-26', '2026-11-23').length).toBeLessThanOrEqual(14);
  });
});
