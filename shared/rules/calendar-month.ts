/**
 * The Schedule screen's Calendar (spec 02 sections 2 and 9): a month grid of whole weeks, Sunday to
 * Saturday, with today (in the company's zone) highlighted and at most 3 tasks a day, then '+N more'.
 * Months and days are calendar values (`YYYY-MM`, `YYYY-MM-DD`): pure date arithmetic, no zone, no DST.
 */
import { addCalendarDays, todayIn, type CalendarDay } from './dates.ts';

/** A calendar month, `YYYY-MM`. */
export type CalendarMonth = string;

/** Tasks shown in a day cell before '+N more' (spec 02 section 9). */
export const CALENDAR_TASKS_PER_DAY = 3;

/** The column headers, Sunday first. */
export const WEEKDAY_HEADERS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** The month today falls in, in the company's zone. */
export function monthOf(now: Date, timeZone: string): CalendarMonth {
  return todayIn(now, timeZone).slice(0, 7);
}

/** Whether `value` is a `YYYY-MM` month (a month in the address bar may be anything). */
export function isCalendarMonth(value: unknown): value is CalendarMonth {
  return typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/** The month `n` months after `month` (negative: before). */
export function addMonths(month: CalendarMonth, n: number): CalendarMonth {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The first and last day of a month. */
export function monthBounds(month: CalendarMonth): { first: CalendarDay; last: CalendarDay } {
  const first = `${month}-01`;
  const last = addCalendarDays(`${addMonths(month, 1)}-01`, -1);
  return { first, last };
}

/** 'March 2026'. */
export function monthLabel(month: CalendarMonth): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export interface CalendarCell {
  day: CalendarDay;
  /** Day of the month, 1..31. */
  date: number;
  /** False for the days of the previous and next month that fill the first and last week. */
  inMonth: boolean;
  isToday: boolean;
}

/**
 * The month's weeks, Sunday to Saturday, from the Sunday on or before the 1st to the Saturday on or after
 * the last day (4 to 6 weeks).
 */
export function monthGrid(month: CalendarMonth, now: Date, timeZone: string): CalendarCell[][] {
  const { first, last } = monthBounds(month);
  const today = todayIn(now, timeZone);
  const weekday = (day: CalendarDay) => new Date(`${day}T00:00:00.000Z`).getUTCDay();
  let day = addCalendarDays(first, -weekday(first));
  const end = addCalendarDays(last, 6 - weekday(last));
  const weeks: CalendarCell[][] = [];
  while (day <= end) {
    const week: CalendarCell[] = [];
    for (let i = 0; i < 7; i += 1) {
      week.push({ day, date: Number(day.slice(8)), inMonth: day.startsWith(month), isToday: day === today });
      day = addCalendarDays(day, 1);
    }
    weeks.push(week);
  }
  return weeks;
}

/** A day cell's tasks: the first 3, and how many more there are ('+N more'). */
export function dayCellTasks<T>(
  tasks: readonly T[],
  limit = CALENDAR_TASKS_PER_DAY,
): { shown: T[]; more: number } {
  return { shown: tasks.slice(0, limit), more: Math.max(tasks.length - limit, 0) };
}
