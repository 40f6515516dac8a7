/** Progress colour of a project's task group (spec 02 sections 4 and 9). */
import { isTaskOverdue } from './due-date-text.ts';
import type { DateInput } from './dates.ts';

export const PROGRESS_GREEN = '#43A047';
export const PROGRESS_RED = '#E53935';
export const PROGRESS_AMBER = '#FB8C00';

/** The rounded share of completed tasks in percent; 0 with no tasks. */
export function completedPercent(tasks: readonly { status: string }[]): number {
  if (tasks.length === 0) return 0;
  return Math.round((tasks.filter((t) => t.status === 'completed').length / tasks.length) * 100);
}

/**
 * Red (#E53935) when any task is overdue; amber (#FB8C00) when tasks exist and under 50% are completed;
 * green (#43A047) otherwise, including with no tasks.
 */
export function progressColour(
  tasks: readonly { status: string; dueDate: DateInput }[],
  now: Date,
  timeZone: string,
): string {
  if (tasks.some((t) => isTaskOverdue(t, now, timeZone))) return PROGRESS_RED;
  if (tasks.length > 0 && completedPercent(tasks) < 50) return PROGRESS_AMBER;
  return PROGRESS_GREEN;
}
