/**
 * The filters of the Project Logs screen (spec 02 sections 2, 5 and 9) as pure functions: search, project,
 * type, status and the date presets. Days are the company's calendar days (`shared/rules/dates.ts`): a log
 * written at 23:30 in Los Angeles belongs to that day there, although UTC has moved on.
 */
import { addCalendarDays, todayIn, toTime, type CalendarDay, type DateInput } from './dates.ts';

/** The date filter's choices: All Dates, Today, This Week, This Month, Custom Range. */
export const LOG_DATE_FILTERS = ['all', 'today', 'week', 'month', 'custom'] as const;
export type LogDateFilter = (typeof LOG_DATE_FILTERS)[number];

/** Spec 02 section 9: the 'week' filter covers 7 days, the 'month' filter 1 month. */
export const LOG_WEEK_DAYS = 7;
export const LOG_MONTH_MONTHS = 1;

/** An inclusive range of calendar days in the company's zone. */
export interface DayRange {
  from: CalendarDay;
  to: CalendarDay;
}

/**
 * The calendar day `n` months before `day`, clamped to the month's last day (31 March minus a month is
 * 28 or 29 February). Pure date arithmetic, like `addCalendarDays`: no zone, no DST.
 */
function monthsBefore(day: CalendarDay, n: number): CalendarDay {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) - n;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * The days a date filter keeps, or null when it keeps every log (All Dates, or a custom range missing an
 * end). Today is today's calendar day; This Week the 7 days ending today; This Month the days after the
 * same day last month through today; a custom range runs from its start day through the whole end day and
 * applies only when both are set (spec 02 section 5).
 */
export function logDayRange(
  filter: LogDateFilter,
  now: Date,
  timeZone: string,
  custom: { start?: string | null; end?: string | null } = {},
): DayRange | null {
  const today = todayIn(now, timeZone);
  switch (filter) {
    case 'today':
      return { from: today, to: today };
    case 'week':
      return { from: addCalendarDays(today, 1 - LOG_WEEK_DAYS), to: today };
    case 'month':
      return { from: addCalendarDays(monthsBefore(today, LOG_MONTH_MONTHS), 1), to: today };
    case 'custom':
      return custom.start && custom.end ? { from: custom.start, to: custom.end } : null;
    default:
      return null;
  }
}

/** The company calendar day an instant (a log's createdAt) falls on, or null when absent. */
export function dayOfInstant(value: DateInput, timeZone: string): CalendarDay | null {
  const t = toTime(value);
  return t === null ? null : todayIn(new Date(t), timeZone);
}

/** What the screen filters by; an empty value or 'all' means no filter on that field. */
export interface LogFilters {
  search: string;
  projectId: string;
  type: string;
  status: string;
  date: LogDateFilter;
  start: string;
  end: string;
}

export const NO_LOG_FILTERS: LogFilters = {
  search: '',
  projectId: 'all',
  type: 'all',
  status: 'all',
  date: 'all',
  start: '',
  end: '',
};

/** Whether any filter is set: the screen then offers 'Clear All Filters'. */
export function hasActiveLogFilters(f: LogFilters): boolean {
  return (
    f.search.trim() !== '' ||
    f.projectId !== 'all' ||
    f.type !== 'all' ||
    f.status !== 'all' ||
    f.date !== 'all' ||
    f.start !== '' ||
    f.end !== ''
  );
}

/** The fields of a log the filters read. */
export interface FilterableLog {
  projectId?: string | null;
  title?: string | null;
  content?: string | null;
  type?: string | null;
  status?: string | null;
  createdAt?: string | null;
}

/**
 * A predicate for the logs the filters keep: search matches title or content, case-insensitive (spec 02
 * section 5); project, type and status match exactly; the date filter by `logDayRange`. `now` is read
 * once, when the predicate is made.
 */
export function logFilterPredicate(
  f: LogFilters,
  now: Date,
  timeZone: string,
): (log: FilterableLog) => boolean {
  const needle = f.search.trim().toLowerCase();
  const range = logDayRange(f.date, now, timeZone, { start: f.start, end: f.end });
  return (log) => {
    if (f.projectId !== 'all' && log.projectId !== f.projectId) return false;
    if (f.type !== 'all' && log.type !== f.type) return false;
    if (f.status !== 'all' && log.status !== f.status) return false;
    if (needle) {
      const inTitle = (log.title ?? '').toLowerCase().includes(needle);
      if (!inTitle && !(log.content ?? '').toLowerCase().includes(needle)) return false;
    }
    if (range) {
      const day = dayOfInstant(log.createdAt, timeZone);
      if (day === null || day < range.from || day > range.to) return false;
    }
    return true;
  };
}

/**
 * The card's quick action (spec 02 section 4): open -> in-progress 'Start Progress', in-progress ->
 * resolved 'Mark Resolved', resolved -> closed 'Close'; none once closed (or for an unknown status).
 */
export function nextLogStatus(status: string | null | undefined): { status: string; label: string } | null {
  switch (status) {
    case 'open':
      return { status: 'in-progress', label: 'Start Progress' };
    case 'in-progress':
      return { status: 'resolved', label: 'Mark Resolved' };
    case 'resolved':
      return { status: 'closed', label: 'Close' };
    default:
      return null;
  }
}
