import { describe, expect, test } from 'vitest';
import {
  addDays,
  dayOf,
  dayStart,
  daysIn,
  eachDay,
  hourOf,
  isDay,
  isTimeZone,
  movedPeriod,
  presetPeriod,
  previousPeriod,
} from '../../common/period';

/** Issue #12: the period maths the reports and the admin share (common/period.ts), at its boundaries. */

describe('presets, on a given today', () => {
  test.each([
    ['2026-03-01', 'today', '2026-03-01', '2026-03-01'],
    ['2026-03-01', 'yesterday', '2026-02-28', '2026-02-28'],
    ['2024-03-01', 'yesterday', '2024-02-29', '2024-02-29'], // leap year
    ['2026-01-01', 'yesterday', '2025-12-31', '2025-12-31'], // year end
    ['2026-01-03', 'last7', '2025-12-28', '2026-01-03'],
    ['2026-03-15', 'last30', '2026-02-14', '2026-03-15'],
    ['2026-01-20', 'thisMonth', '2026-01-01', '2026-01-20'],
    ['2026-01-20', 'lastMonth', '2025-12-01', '2025-12-31'],
    ['2026-03-31', 'lastMonth', '2026-02-01', '2026-02-28'],
    ['2024-03-31', 'lastMonth', '2024-02-01', '2024-02-29'],
  ] as const)('on %s, %s is %s..%s', (today, preset, from, to) => {
    expect(presetPeriod(preset, today)).toEqual({ from, to });
  });
});

describe('the previous period has the same length and ends the day before', () => {
  test.each([
    ['2026-01-01', '2026-01-01', '2025-12-31', '2025-12-31'],
    ['2026-01-01', '2026-01-07', '2025-12-25', '2025-12-31'],
    ['2026-03-01', '2026-03-31', '2026-01-29', '2026-02-28'], // 31 days back across February
    ['2024-02-01', '2024-02-29', '2024-01-03', '2024-01-31'],
  ])('%s..%s follows %s..%s', (from, to, pFrom, pTo) => {
    const prev = previousPeriod({ from, to });
    expect(prev).toEqual({ from: pFrom, to: pTo });
    expect(daysIn(prev.from, prev.to)).toBe(daysIn(from, to));
    expect(addDays(prev.to, 1)).toBe(from);
  });
});

describe('days in a time zone', () => {
  test.each([
    // instant, zone, day, hour
    ['2026-12-31T15:59:59Z', 'Asia/Shanghai', '2026-12-31', 23],
    ['2026-12-31T16:00:00Z', 'Asia/Shanghai', '2027-01-01', 0], // new year arrives 8 hours before UTC
    ['2026-01-01T04:59:59Z', 'America/New_York', '2025-12-31', 23],
    ['2026-03-08T07:30:00Z', 'America/New_York', '2026-03-08', 3], // after the spring-forward gap
    ['2026-06-30T23:00:00Z', 'Pacific/Kiritimati', '2026-07-01', 13],
  ])('%s in %s is %s, hour %i', (instant, zone, day, hour) => {
    expect(dayOf(new Date(instant), zone)).toBe(day);
    expect(hourOf(new Date(instant), zone)).toBe(hour);
  });

  test.each([
    ['2027-01-01', 'Asia/Shanghai', '2026-12-31T16:00:00.000Z'],
    ['2026-03-01', 'Asia/Shanghai', '2026-02-28T16:00:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'], // the day DST starts: midnight is still EST
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'], // the day DST ends
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'],
    ['2026-06-01', 'UTC', '2026-06-01T00:00:00.000Z'],
  ])('%s starts in %s at %s', (day, zone, instant) => {
    expect(dayStart(day, zone).toISOString()).toBe(instant);
    expect(dayOf(dayStart(day, zone), zone)).toBe(day);
    expect(dayOf(new Date(dayStart(day, zone).getTime() - 1), zone)).toBe(addDays(day, -1));
  });

  test('a day whose midnight does not exist starts at the change (America/Havana springs forward at 00:00)', () => {
    const start = dayStart('2026-03-08', 'America/Havana');
    expect(dayOf(start, 'America/Havana')).toBe('2026-03-08');
    expect(dayOf(new Date(start.getTime() - 1), 'America/Havana')).toBe('2026-03-07');
  });
});

test('day arithmetic and checks', () => {
  expect(eachDay('2025-12-30', '2026-01-02')).toEqual([
    '2025-12-30',
    '2025-12-31',
    '2026-01-01',
    '2026-01-02',
  ]);
  expect(eachDay('2026-01-02', '2026-01-01')).toEqual([]);
  expect(daysIn('2024-01-01', '2024-12-31')).toBe(366);
  expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
  expect(isDay('2026-02-29')).toBe(false);
  expect(isDay('2024-02-29')).toBe(true);
  expect(isDay('2026-1-01')).toBe(false);
  expect(isTimeZone('Asia/Shanghai')).toBe(true);
  expect(isTimeZone('Mars/Olympus')).toBe(false);
  expect(isTimeZone('')).toBe(false);
});

test('a period read on one day, as the same read means it on a later one (reads kept warm)', () => {
  // Ending on the day of the read or the day before: moved by the days since, its length kept, across a year's end.
  expect(movedPeriod({ from: '2026-12-25', to: '2026-12-31' }, '2026-12-31', '2027-01-01')).toEqual({
    from: '2026-12-26',
    to: '2027-01-01',
  });
  expect(movedPeriod({ from: '2026-02-27', to: '2026-02-27' }, '2026-02-28', '2026-03-02')).toEqual({
    from: '2026-03-01',
    to: '2026-03-01',
  });
  // Ended earlier, or read today: as it was.
  const past = { from: '2026-10-01', to: '2026-10-31' };
  expect(movedPeriod(past, '2026-11-28', '2026-11-29')).toBe(past);
  const week = { from: '2026-11-22', to: '2026-11-28' };
  expect(movedPeriod(week, '2026-11-28', '2026-11-28')).toBe(week);
  expect(movedPeriod(week, '2026-11-29', '2026-11-28')).toBe(week); // a clock set back
});
