/**
 * What "today" means (DECISIONS.md "What 'today' is"): every rule that counts days asks this module, on the
 * server and on the device, with `now` and the company's IANA time zone passed in; nothing here reads the
 * clock.
 *
 * Two kinds of values meet here:
 * - `now` is an instant; its calendar day is read in the company's zone (at 23:30 in Los Angeles it is
 *   still that day there, although UTC has moved on).
 * - A due date is a calendar day. On the wire a date-only value means midnight UTC
 *   (shared/schemas/common.ts) and the forms show and edit a stored due date by its UTC date, keeping its
 *   time of day (web/features/projects/utils/dates.ts); so the day a due date names is its UTC date,
 *   whatever the zone, and the same day the forms show.
 * Days are compared as calendar dates, never as 24-hour spans, so a 23- or 25-hour DST day counts as one.
 */
import { format, startOfDay, startOfWeek, addDays } from 'date-fns';
import { tz, TZDate } from '@date-fns/tz';

// The zone rules live in a module without date-fns, so the app's first script can check a stored zone.
export { DEFAULT_TIME_ZONE, isTimeZone, zoneOrDefault } from './time-zone.ts';
import { zoneOrDefault } from './time-zone.ts';

const DAY_MS = 86_400_000;

/** A date value as the rules accept it: a Date, an ISO string, or nothing. */
export type DateInput = Date | string | null | undefined;

/** A calendar day, `YYYY-MM-DD`. */
export type CalendarDay = string;

/** The instant of a date value in epoch ms, or null when absent or unparseable. */
export function toTime(value: DateInput): number | null {
  if (value === null || value === undefined || value === '') return null;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/** The calendar day `now` falls on in `timeZone`. */
export function todayIn(now: Date, timeZone: string): CalendarDay {
  const t = now.getTime();
  if (lastToday && lastToday.t === t && lastToday.zone === timeZone) return lastToday.day;
  const day = format(now, 'yyyy-MM-dd', { in: tz(zoneOrDefault(timeZone)) });
  lastToday = { t, zone: timeZone, day };
  return day;
}

// The last answer of `todayIn`: a screen asks it once per task with the same `now` (10,000 times on
// /tasks), and a zoned format costs tens of microseconds each.
let lastToday: { t: number; zone: string; day: CalendarDay } | null = null;

/** The calendar day a due date names (its UTC date, as on the wire and in the forms), or null. */
export function dueDay(date: DateInput): CalendarDay | null {
  const t = toTime(date);
  return t === null ? null : new Date(t).toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of a calendar day (pure date arithmetic: no zone, no DST). */
function dayNumber(day: CalendarDay): number {
  return Math.round(Date.parse(`${day}T00:00:00.000Z`) / DAY_MS);
}

/**
 * Whole calendar days from today (in the company's zone) to the due day: 0 today, 1 tomorrow, -1
 * yesterday; null when the date is absent.
 */
export function daysUntil(date: DateInput, now: Date, timeZone: string): number | null {
  const day = dueDay(date);
  return day === null ? null : dayNumber(day) - dayNumber(todayIn(now, timeZone));
}

/** The calendar day `n` days after `day` (negative: before). */
export function addCalendarDays(day: CalendarDay, n: number): CalendarDay {
  return new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);
}

/** The instant the company's current day began (midnight in its zone, DST-aware), e.g. "uploaded today". */
export function startOfTodayIn(now: Date, timeZone: string): Date {
  return new Date(startOfDay(new TZDate(now, zoneOrDefault(timeZone))).getTime());
}

/** The days of the current week, Sunday to Saturday, in the company's zone (the Weekly View). */
export function weekDaysIn(now: Date, timeZone: string): CalendarDay[] {
  const zone = tz(zoneOrDefault(timeZone));
  const sunday = startOfWeek(now, { weekStartsOn: 0, in: zone });
  return Array.from({ length: 7 }, (_, i) => format(addDays(sunday, i, { in: zone }), 'yyyy-MM-dd'));
}

/** Whether a due date falls in the current Sunday-to-Saturday week (the Weekly View). */
export function isDueInCurrentWeek(date: DateInput, now: Date, timeZone: string): boolean {
  const day = dueDay(date);
  if (day === null) return false;
  const week = weekDaysIn(now, timeZone);
  return day >= week[0]! && day <= week[6]!;
}

/** The due-this-week window (spec 02 section 9): from today up to 7 days ahead. */
export const DUE_THIS_WEEK_DAYS = 7;

/** Whether a due date is in the due-this-week window: today through 7 days ahead, in the company's zone. */
export function isDueThisWeek(date: DateInput, now: Date, timeZone: string): boolean {
  const days = daysUntil(date, now, timeZone);
  return days !== null && days >= 0 && days <= DUE_THIS_WEEK_DAYS;
}
