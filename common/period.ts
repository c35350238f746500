/**
 * Period maths of the statistics reports, shared by the API and the admin: days are `YYYY-MM-DD` in the tenant's
 * time zone (IANA name, Asia/Shanghai by default). Pure functions, no dependency: a day is calendar arithmetic on
 * its UTC midnight, and only `todayIn`/`dayOf`/`dayStart` consult the time zone (through Intl).
 */

export type Day = string;
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
export const PERIOD_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export interface Period {
  from: Day;
  to: Day;
}

const DAY_MS = 86_400_000;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written `YYYY-MM-DD` (years 1000–9999). */
export function isDay(s: string): boolean {
  if (!DAY_RE.test(s) || s < '1000') return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

const utc = (day: Day) => Date.parse(`${day}T00:00:00Z`);
const fromUtc = (t: number): Day => new Date(t).toISOString().slice(0, 10);

/** `day` moved by `n` days (negative goes back). */
export function addDays(day: Day, n: number): Day {
  return fromUtc(utc(day) + n * DAY_MS);
}

/** Days from `from` to `to`, both included (1 for a single day; 0 or less when `to` is before `from`). */
export function daysIn(from: Day, to: Day): number {
  return Math.round((utc(to) - utc(from)) / DAY_MS) + 1;
}

/** Every day of the period, in order. */
export function eachDay(from: Day, to: Day): Day[] {
  const n = daysIn(from, to);
  return Array.from({ length: Math.max(0, n) }, (_, i) => addDays(from, i));
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    // Time zones are few (the settings' choices); the bound keeps a caller's mistakes from growing the map.
    if (formatters.size < 100) formatters.set(timeZone, f);
  }
  return f;
}

/** Wall-clock parts of an instant in a time zone. */
export function partsIn(instant: Date, timeZone: string) {
  const p: Record<string, string> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(instant)) p[type] = value;
  return {
    day: `${p.year}-${p.month}-${p.day}`,
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
  };
}

/** Whether `timeZone` is an IANA name this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The day an instant falls on in a time zone. */
export function dayOf(instant: Date, timeZone: string): Day {
  return partsIn(instant, timeZone).day;
}

/** The hour (0–23) of an instant's wall clock in a time zone. */
export function hourOf(instant: Date, timeZone: string): number {
  return partsIn(instant, timeZone).hour;
}

export const todayIn = dayOf;

/** The UTC offset of a time zone at an instant, in ms (east positive). */
function offsetAt(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  const wall = Date.parse(`${p.day}T00:00:00Z`) + ((p.hour * 60 + p.minute) * 60 + p.second) * 1000;
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant a day starts in a time zone (its first wall-clock moment: midnight, or later when a daylight-saving
 * change skips midnight). The end of a day is the start of the next.
 */
export function dayStart(day: Day, timeZone: string): Date {
  const guess = utc(day);
  let t = guess - offsetAt(new Date(guess), timeZone);
  t = guess - offsetAt(new Date(t), timeZone); // the offset at the guess may differ across a change
  if (dayOf(new Date(t), timeZone) !== day) {
    // Midnight does not exist that day (a change at 00:00): the day starts at the change, found by bisection
    // (changes fall on whole minutes).
    let lo = t;
    let hi = t + 3 * 3_600_000;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (dayOf(new Date(mid), timeZone) === day) hi = mid;
      else lo = mid;
    }
    return new Date(hi);
  }
  return new Date(t);
}

/** The period of a preset, as seen on `today` (a day in the tenant's time zone). */
export function presetPeriod(preset: PeriodPreset, today: Day): Period {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const y = addDays(today, -1);
      return { from: y, to: y };
    }
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'thisMonth':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'lastMonth': {
      const to = addDays(`${today.slice(0, 8)}01`, -1);
      return { from: `${to.slice(0, 8)}01`, to };
    }
  }
}

/**
 * A period read on `readDay`, as the same read most likely means it on `today`: one that ended yesterday or today
 * then (the last 7 days) moves by the days since, keeping its length; one that ended earlier (a month past) stays.
 */
export function movedPeriod(period: Period, readDay: Day, today: Day): Period {
  const n = daysIn(readDay, today) - 1;
  if (n <= 0 || period.to < addDays(readDay, -1)) return period;
  return { from: addDays(period.from, n), to: addDays(period.to, n) };
}

/** The period of the same length that ends the day before `from`: what a report compares with. */
export function previousPeriod({ from, to }: Period): Period {
  const n = daysIn(from, to);
  return { from: addDays(from, -n), to: addDays(from, -1) };
}

/** Change from `previous` to `current` as a fraction (0.25 = +25 %), or null when there was nothing before. */
export function changeRatio(current: number, previous: number): number | null {
  if (!previous) return null;
  return (current - previous) / previous;
}

/** An instant as `YYYY-MM-DD HH:mm:ss` on a time zone's wall clock (what an operator reads in an export). */
export function formatInstant(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.day} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** A time zone's offset from UTC at an instant, written `UTC+08:00`. */
export function utcOffsetLabel(instant: Date, timeZone: string): string {
  const minutes = Math.round(offsetAt(instant, timeZone) / 60_000);
  const a = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/**
 * The key of the present moment as the series name its points, in the tenant's time zone: "YYYY-MM-DD HH:00"
 * (a day's point is compared with its first ten characters).
 */
export function presentKey(now: Date, timeZone: string): string {
  return `${dayOf(now, timeZone)} ${String(hourOf(now, timeZone)).padStart(2, '0')}:00`;
}

/** A point after `present` (a day after today, an hour after this one): it has not come, there is nothing to draw. */
export const isFuture = (date: string, present: string) => date > present.slice(0, date.length);
