/**
 * The Crew Dashboard's day (spec 02 sections 2 and 9): today's tasks, the upcoming ones of the next 7 days,
 * what was completed today and the latest schedule-change requests. Days are calendar days of the company's
 * time zone (dates.ts), `now` is passed in.
 */
import { daysUntil, todayIn, toTime, type DateInput } from './dates.ts';

/** Upcoming window (crew): the 7 days after today (spec 02 section 9). */
export const CREW_UPCOMING_DAYS = 7;
/** The Upcoming Tasks list shows 5 of them (spec 02 section 9). */
export const CREW_UPCOMING_LIMIT = 5;
/** Recent schedule changes (crew): the latest 5 (spec 02 section 9). */
export const CREW_RECENT_REQUESTS = 5;

export interface CrewTask {
  id: string;
  status?: string;
  dueDate?: DateInput;
  /** When the task was completed (the server stamps it; the device knows it from its own unsent tick). */
  completedAt?: DateInput;
  title?: string;
}

export interface CrewDay<T extends CrewTask> {
  /** Tasks due today, completed ones included (the list ticks them off), by due time then title. */
  today: T[];
  /** Open tasks due in the 7 days after today, soonest first (all of them: the counter counts them all). */
  upcoming: T[];
  /** How many tasks were completed today in the company's zone. */
  completedToday: number;
}

const byDue = (a: CrewTask, b: CrewTask) =>
  (toTime(a.dueDate) ?? 0) - (toTime(b.dueDate) ?? 0) || (a.title ?? '').localeCompare(b.title ?? '');

/** Whether the instant `at` falls on the company's current day. */
export function isTodayIn(at: DateInput, now: Date, timeZone: string): boolean {
  const t = toTime(at);
  return t !== null && todayIn(new Date(t), timeZone) === todayIn(now, timeZone);
}

/** Splits the signed-in crew member's tasks into the dashboard's lists and counters. */
export function crewDay<T extends CrewTask>(tasks: readonly T[], now: Date, timeZone: string): CrewDay<T> {
  const today: T[] = [];
  const upcoming: T[] = [];
  let completedToday = 0;
  for (const t of tasks) {
    const days = daysUntil(t.dueDate, now, timeZone);
    if (days === 0) today.push(t);
    else if (days !== null && days > 0 && days <= CREW_UPCOMING_DAYS && t.status !== 'completed') {
      upcoming.push(t);
    }
    if (t.status === 'completed' && isTodayIn(t.completedAt, now, timeZone)) completedToday += 1;
  }
  return { today: today.sort(byDue), upcoming: upcoming.sort(byDue), completedToday };
}

/**
 * The due time of a task as the Today list shows it ('3:30 PM'), or 'No time set'. A due date names its
 * UTC calendar day and keeps its time of day in UTC (dates.ts), so the time is read in UTC too; a date-only
 * value (midnight UTC, what a date picker sends) carries no time.
 */
export function dueTimeText(dueDate: DateInput): string {
  const t = toTime(dueDate);
  if (t === null) return 'No time set';
  const d = new Date(t);
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0) return 'No time set';
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(d);
}

/** The latest `limit` schedule-change requests, newest first. */
export function recentRequests<C extends { createdAt?: DateInput }>(
  changes: readonly C[],
  limit = CREW_RECENT_REQUESTS,
): C[] {
  return [...changes].sort((a, b) => (toTime(b.createdAt) ?? 0) - (toTime(a.createdAt) ?? 0)).slice(0, limit);
}
