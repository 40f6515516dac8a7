/**
 * Due-date wording and the overdue test (spec 01 section 9, spec 02 sections 4 and 9), in calendar days of
 * the company's time zone (dates.ts): a task due today is 'Due today' until midnight there and becomes
 * overdue the next day; a completed task is never overdue (DECISIONS.md).
 */
import { daysUntil, type DateInput } from './dates.ts';

/**
 * '1 day overdue' / 'n days overdue', 'Due today', 'Due tomorrow', 'Due in n days'; 'No due date' when the
 * date is absent.
 */
export function dueDateText(dueDate: DateInput, now: Date, timeZone: string): string {
  const days = daysUntil(dueDate, now, timeZone);
  if (days === null) return 'No due date';
  if (days < 0) return `${-days} ${days === -1 ? 'day' : 'days'} overdue`;
  if (days === 0) return 'Due today';
  if (days === 1) return 'Due tomorrow';
  return `Due in ${days} days`;
}

/** A task is overdue when it is not completed and its due day is before today. */
export function isTaskOverdue(
  task: { status: string; dueDate: DateInput },
  now: Date,
  timeZone: string,
): boolean {
  if (task.status === 'completed') return false;
  const days = daysUntil(task.dueDate, now, timeZone);
  return days !== null && days < 0;
}

/**
 * A task's due wording: 'Completed' once it is done (never 'n days overdue', DECISIONS.md), otherwise
 * dueDateText. A done task without a due date still says 'No due date'.
 */
export function taskDueText(
  task: { status?: string | null; dueDate?: DateInput },
  now: Date,
  timeZone: string,
): string {
  if (task.status === 'completed' && daysUntil(task.dueDate, now, timeZone) !== null) return 'Completed';
  return dueDateText(task.dueDate, now, timeZone);
}

/** The Timeline's wording (spec 02 section 2): 'N days overdue', 'Due today', 'N days remaining'. */
export function daysRemainingText(dueDate: DateInput, now: Date, timeZone: string): string {
  const days = daysUntil(dueDate, now, timeZone);
  if (days === null) return 'No due date';
  if (days < 0) return `${-days} ${days === -1 ? 'day' : 'days'} overdue`;
  if (days === 0) return 'Due today';
  return `${days} ${days === 1 ? 'day' : 'days'} remaining`;
}
