/**
 * Due-date wording and the overdue test (spec 01 section 9, spec 02 section 4), in UTC calendar days:
 * a task due today is 'Due today' all day long and becomes overdue the next day.
 */
import { daysUntil, type DateInput } from './dates.ts';

/**
 * '1 day overdue' / 'n days overdue', 'Due today', 'Due tomorrow', 'Due in n days'; 'No due date' when the
 * date is absent.
 */
export function dueDateText(dueDate: DateInput, now: Date): string {
  const days = daysUntil(dueDate, now);
  if (days === null) return 'No due date';
  if (days < 0) return `${-days} ${days === -1 ? 'day' : 'days'} overdue`;
  if (days === 0) return 'Due today';
  if (days === 1) return 'Due tomorrow';
  return `Due in ${days} days`;
}

/** A task is overdue when it is not completed and its due day is before today. */
export function isTaskOverdue(task: { status: string; dueDate: DateInput }, now: Date): boolean {
  if (task.status === 'completed') return false;
  const days = daysUntil(task.dueDate, now);
  return days !== null && days < 0;
}
