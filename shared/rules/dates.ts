/**
 * Calendar-day arithmetic shared by the rules. Days are UTC calendar days: a date-only value on the wire
 * means midnight UTC (shared/schemas/common.ts), so comparing UTC days keeps 'due today' stable whatever
 * the time of day. Every function takes `now` explicitly; none reads the clock.
 */

const DAY_MS = 86_400_000;

/** A date value as the rules accept it: a Date, an ISO string, or nothing. */
export type DateInput = Date | string | null | undefined;

/** The instant of a date value in epoch ms, or null when absent or unparseable. */
export function toTime(value: DateInput): number | null {
  if (value === null || value === undefined || value === '') return null;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** The number of the UTC calendar day holding `value` (days since 1970-01-01), or null. */
export function utcDay(value: DateInput): number | null {
  const t = toTime(value);
  return t === null ? null : Math.floor(t / DAY_MS);
}

/**
 * Whole UTC calendar days from `now`'s day to `date`'s day: 0 today, 1 tomorrow, -1 yesterday; null when
 * the date is absent.
 */
export function daysUntil(date: DateInput, now: Date): number | null {
  const day = utcDay(date);
  return day === null ? null : day - (utcDay(now) as number);
}
