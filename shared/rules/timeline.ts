/**
 * The Schedule screen's lists (spec 02 section 2): Overview's Upcoming Tasks and the Timeline, in calendar
 * days of the company's time zone (dates.ts).
 */
import { daysUntil, dueDay, todayIn, type DateInput } from './dates.ts';
import { daysRemainingText } from './due-date-text.ts';

/** Upcoming tasks on the Schedule Overview (spec 02 section 9). */
export const UPCOMING_LIMIT = 10;

interface DatedTask {
  title?: string | null;
  dueDate?: DateInput;
}

/** Due date first (earliest first), then title: the order of every schedule list. */
export function byDueDate<T extends DatedTask>(a: T, b: T): number {
  const da = typeof a.dueDate === 'string' ? a.dueDate : (a.dueDate?.toISOString() ?? '');
  const db = typeof b.dueDate === 'string' ? b.dueDate : (b.dueDate?.toISOString() ?? '');
  if (da !== db) return da < db ? -1 : 1;
  return (a.title ?? '').localeCompare(b.title ?? '');
}

/**
 * The smallest stored due date that is still upcoming: midnight UTC of the company's today, because a due
 * date names its UTC date (dates.ts). Screens read the dueDate index from here instead of scanning tasks.
 */
export function upcomingLowerBound(now: Date, timeZone: string): string {
  return `${todayIn(now, timeZone)}T00:00:00.000Z`;
}

/**
 * Whether a task is future-dated for the Overview: due today or later in the company's zone. Today counts,
 * since a task due today is not overdue until the day is over there.
 */
export function isUpcoming(task: DatedTask, now: Date, timeZone: string): boolean {
  const days = daysUntil(task.dueDate, now, timeZone);
  return days !== null && days >= 0;
}

/** Overview's 'Upcoming Tasks': future-dated tasks by due date, the first 10. */
export function upcomingTasks<T extends DatedTask>(
  tasks: readonly T[],
  now: Date,
  timeZone: string,
  limit = UPCOMING_LIMIT,
): T[] {
  return tasks
    .filter((t) => isUpcoming(t, now, timeZone))
    .sort(byDueDate)
    .slice(0, limit);
}

/** The Timeline: every task with a due date, by due date. */
export function timelineTasks<T extends DatedTask>(tasks: readonly T[]): T[] {
  return tasks.filter((t) => dueDay(t.dueDate) !== null).sort(byDueDate);
}

/**
 * A Timeline item's due text: 'N days overdue', 'Due today' or 'N days remaining' (spec 02 section 2),
 * except that a completed task past its date says 'Completed', since it is never overdue (DECISIONS.md).
 */
export function timelineDueText(
  task: { status?: string | null; dueDate?: DateInput },
  now: Date,
  timeZone: string,
): string {
  const days = daysUntil(task.dueDate, now, timeZone);
  if (task.status === 'completed' && days !== null && days < 0) return 'Completed';
  return daysRemainingText(task.dueDate, now, timeZone);
}
