/**
 * Report periods (issue #12): calendar days `YYYY-MM-DD` in the tenant's time zone, pure functions with no
 * dependency, run by the API (day boundaries of a period) and the admin (presets, the previous period).
 * A period is inclusive at both ends: `{from: '2026-11-01', to: '2026-11-30'}` is 30 days.
 */

export interface Period {
  from: string;
  to: string;
}

/** The presets of every report, in the order the screens offer them. */
export const PERIOD_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A day number (days since 1970-01-01) of a `YYYY-MM-DD`, or NaN when it is not a real calendar date. */
function dayNumber(date: string): number {
  const m = DATE_RE.exec(date);
  if (!m) return Number.NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return Number.NaN;
  return t / DAY_MS;
}

function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (2026-02-30 is not). */
export function isDate(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(dayNumber(value));
}

/** The date `n` days after (before, when negative) `date`. */
export function addDays(date: string, n: number): string {
  const d = dayNumber(date);
  if (Number.isNaN(d)) throw new RangeError(`Not a date: ${date}`);
  return fromDayNumber(d + n);
}

/** Days from `from` to `to`, both included (1 for a single day; ≤ 0 when `to` is before `from`). */
export function periodDays({ from, to }: Period): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/** Every date of the period, in order. */
export function periodDates(period: Period): string[] {
  const start = dayNumber(period.from);
  return Array.from({ length: Math.max(0, periodDays(period)) }, (_, i) => fromDayNumber(start + i));
}

/** The period a preset means on the day `today` (in the tenant's time zone). */
export function presetPeriod(preset: PeriodPreset, today: string): Period {
  const [y, m] = today.split('-').map(Number);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const d = addDays(today, -1);
      return { from: d, to: d };
    }
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'thisMonth':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'lastMonth': {
      const first = fromDayNumber(Date.UTC(y, m - 2, 1) / DAY_MS);
      return { from: first, to: addDays(`${today.slice(0, 7)}-01`, -1) };
    }
  }
}

/** The preset that gives exactly this period on `today`, if any. */
export function presetOf(period: Period, today: string): PeriodPreset | undefined {
  return PERIOD_PRESETS.find((p) => {
    const q = presetPeriod(p, today);
    return q.from === period.from && q.to === period.to;
  });
}

/** The comparison period: as many days, ending the day before `from`. */
export function previousPeriod(period: Period): Period {
  const days = periodDays(period);
  return { from: addDays(period.from, -days), to: addDays(period.from, -1) };
}

/** Offset of `timeZone` from UTC at the instant `t` (ms; +8 h for Asia/Shanghai). */
function zoneOffset(t: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return local - Math.floor(t / 1000) * 1000;
}

/** The date it is in `timeZone` at the instant `now`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return fromDayNumber(Math.floor((now.getTime() + zoneOffset(now.getTime(), timeZone)) / DAY_MS));
}

/** The instant a day starts in `timeZone` (its local midnight; the first instant of the day across a DST gap). */
export function dayStart(date: string, timeZone: string): Date {
  const d = dayNumber(date);
  if (Number.isNaN(d)) throw new RangeError(`Not a date: ${date}`);
  const midnight = d * DAY_MS;
  let t = midnight - zoneOffset(midnight, timeZone);
  // The offset at the guess may differ from the one at midnight local (a DST change that day): one correction.
  t = midnight - zoneOffset(t, timeZone);
  if (todayIn(timeZone, new Date(t)) !== date) t += 3_600_000;
  return new Date(t);
}

/** The instants [start, end) a period covers in `timeZone`. */
export function periodRange(period: Period, timeZone: string): { start: Date; end: Date } {
  return { start: dayStart(period.from, timeZone), end: dayStart(addDays(period.to, 1), timeZone) };
}
