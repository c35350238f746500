/**
 * Impossible dates, one rule for the API (which refuses them) and the forms (which say so at once): a day or year
 * that has not come yet where only the past makes sense (a birthday, a debut, a release), and a debut before the
 * birth. "Now" is the latest calendar day anywhere (UTC+14), so an operator in any time zone may enter today.
 */
const LATEST_OFFSET_MS = 14 * 3_600_000;

/** Today's date (YYYY-MM-DD) in the time zone furthest ahead. */
export const latestToday = (now: Date) =>
  new Date(now.getTime() + LATEST_OFFSET_MS).toISOString().slice(0, 10);

/** A day (YYYY-MM-DD) after today everywhere. */
export const isFutureDay = (day: string | null | undefined, now: Date) => !!day && day > latestToday(now);

/** A year after this one everywhere. */
export const isFutureYear = (year: number | null | undefined, now: Date) =>
  year !== null && year !== undefined && year > Number(latestToday(now).slice(0, 4));

/** A debut year before the year of birth. */
export const isDebutBeforeBirth = (
  debutYear: number | null | undefined,
  birthday: string | null | undefined,
) => debutYear !== null && debutYear !== undefined && !!birthday && debutYear < Number(birthday.slice(0, 4));
