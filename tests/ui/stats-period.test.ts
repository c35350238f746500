import { describe, expect, test } from 'vitest';
import {
  addDays,
  changeRatio,
  dayStart,
  daysIn,
  eachDay,
  isDay,
  presetPeriod,
  previousPeriod,
  todayIn,
} from '../../common/period';

describe('presets', () => {
  test.each([
    // today, preset, from, to
    ['2026-11-23', 'today', '2026-11-23', '2026-11-23'],
    ['2026-11-23', 'yesterday', '2026-11-22', '2026-11-22'],
    ['2026-11-23', 'last7', '2026-11-17', '2026-11-23'],
    ['2026-11-23', 'last30', '2026-10-25', '2026-11-23'],
    ['2026-11-23', 'thisMonth', '2026-11-01', '2026-11-23'],
    ['2026-11-23', 'lastMonth', '2026-10-01', '2026-10-31'],
    // month and year ends
    ['2026-03-01', 'yesterday', '2026-02-28', '2026-02-28'],
    ['2028-03-01', 'yesterday', '2028-02-29', '2028-02-29'],
    ['2026-01-01', 'yesterday', '2025-12-31', '2025-12-31'],
    ['2026-01-03', 'last7', '2025-12-28', '2026-01-03'],
    ['2026-01-15', 'lastMonth', '2025-12-01', '2025-12-31'],
    ['2026-03-31', 'lastMonth', '2026-02-01', '2026-02-28'],
    ['2024-03-10', 'lastMonth', '2024-02-01', '2024-02-29'],
    ['2026-01-01', 'thisMonth', '2026-01-01', '2026-01-01'],
    ['2026-03-05', 'last30', '2026-02-04', '2026-03-05'],
  ] as const)('%s %s → %s … %s', (today, preset, from, to) => {
    expect(presetPeriod(preset, today)).toEqual({ from, to });
  });
});

describe('the previous period has as many days and ends the day before', () => {
  test.each([
    ['2026-11-23', '2026-11-23', '2026-11-22', '2026-11-22'],
    ['2026-11-17', '2026-11-23', '2026-11-10', '2026-11-16'],
    ['2026-01-01', '2026-01-07', '2025-12-25', '2025-12-31'],
    ['2026-03-01', '2026-03-31', '2026-01-29', '2026-02-28'],
    ['2024-03-01', '2024-03-02', '2024-02-28', '2024-02-29'],
  ])('%s … %s → %s … %s', (from, to, pFrom, pTo) => {
    const prev = previousPeriod({ from, to });
    expect(prev).toEqual({ from: pFrom, to: pTo });
    expect(daysIn(prev.from, prev.to)).toBe(daysIn(from, to));
  });
});

test('dates: validity, arithmetic, listing', () => {
  expect(isDay('2026-02-28')).toBe(true);
  expect(isDay('2026-02-29')).toBe(false);
  expect(isDay('2024-02-29')).toBe(true);
  expect(isDay('2026-13-01')).toBe(false);
  expect(isDay('2026-1-01')).toBe(false);
  expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  expect(eachDay('2025-12-30', '2026-01-02')).toEqual([
    '2025-12-30',
    '2025-12-31',
    '2026-01-01',
    '2026-01-02',
  ]);
  expect(eachDay('2026-01-02', '2026-01-01')).toEqual([]);
  expect(changeRatio(12, 8)).toBe(0.5);
  expect(changeRatio(5, 0)).toBeNull();
});

describe('time zones', () => {
  test.each([
    // instant (UTC), zone, its date there
    ['2026-11-23T15:59:59Z', 'Asia/Shanghai', '2026-11-23'],
    ['2026-11-23T16:00:00Z', 'Asia/Shanghai', '2026-11-24'],
    ['2026-12-31T16:00:00Z', 'Asia/Shanghai', '2027-01-01'],
    ['2026-01-01T04:59:59Z', 'America/New_York', '2025-12-31'],
    ['2026-01-01T05:00:00Z', 'America/New_York', '2026-01-01'],
    ['2026-03-01T00:30:00Z', 'UTC', '2026-03-01'],
    ['2026-02-28T23:30:00Z', 'Asia/Kolkata', '2026-03-01'],
  ])('%s is %s in %s', (instant, zone, date) => {
    expect(todayIn(new Date(instant), zone)).toBe(date);
  });

  test.each([
    ['2026-11-24', 'Asia/Shanghai', '2026-11-23T16:00:00.000Z'],
    ['2027-01-01', 'Asia/Shanghai', '2026-12-31T16:00:00.000Z'],
    ['2026-01-01', 'America/New_York', '2026-01-01T05:00:00.000Z'],
    ['2026-07-01', 'America/New_York', '2026-07-01T04:00:00.000Z'],
    // DST starts at 02:00 on 2026-03-08 in New York: the day still starts at 05:00 UTC, the next at 04:00
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-03-01', 'Asia/Kolkata', '2026-02-28T18:30:00.000Z'],
  ])('%s starts in %s at %s', (date, zone, instant) => {
    expect(dayStart(date, zone).toISOString()).toBe(instant);
  });

  test('a day is 23 hours on a spring-forward day: the next day starts an hour sooner', () => {
    const start = dayStart('2026-03-08', 'America/New_York');
    const end = dayStart('2026-03-09', 'America/New_York');
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(23);
  });
});
