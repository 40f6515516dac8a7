/**
 * The dashboard's task widgets (spec 01 sections 2 and 9): today's tasks, expired tasks and the next
 * priority tasks. Days are calendar days of the company's time zone (dates.ts).
 */
import { daysUntil, toTime, type DateInput } from './dates.ts';

export interface DashboardTask {
  status: string;
  priority: string;
  dueDate: DateInput;
}

/** Sorting ranks of task priorities: critical 4, high 3, medium 2, low 1 (unknown 0). */
export const PRIORITY_RANK: Readonly<Record<string, number>> = { critical: 4, high: 3, medium: 2, low: 1 };

/** The rank of a priority; an unknown value ranks below low. */
export function priorityRank(priority: string): number {
  return PRIORITY_RANK[priority] ?? 0;
}

/** Priority colour: high and critical show red, the others blue. */
export function priorityColour(priority: string): 'red' | 'blue' {
  return priority === 'high' || priority === 'critical' ? 'red' : 'blue';
}

export const TODAY_LIMIT = 4;
export const EXPIRED_LIMIT = 5;
export const NEXT_PRIORITY_LIMIT = 3;

/** Up to 4 tasks due on the current day (completed ones included: the widget ticks them off). */
export function todaysTasks<T extends DashboardTask>(
  tasks: readonly T[],
  now: Date,
  timeZone: string,
  limit = TODAY_LIMIT,
): T[] {
  return tasks.filter((t) => daysUntil(t.dueDate, now, timeZone) === 0).slice(0, limit);
}

/** Up to 5 expired tasks: not completed, due on a day before today. */
export function expiredTasks<T extends DashboardTask>(
  tasks: readonly T[],
  now: Date,
  timeZone: string,
  limit = EXPIRED_LIMIT,
): T[] {
  return tasks
    .filter((t) => {
      const days = daysUntil(t.dueDate, now, timeZone);
      return t.status !== 'completed' && days !== null && days < 0;
    })
    .slice(0, limit);
}

/**
 * The next 3 priority tasks: not completed, due today or later, sorted by priority rank (highest first)
 * and then by earliest due date.
 */
export function nextPriorityTasks<T extends DashboardTask>(
  tasks: readonly T[],
  now: Date,
  timeZone: string,
  limit = NEXT_PRIORITY_LIMIT,
): T[] {
  return tasks
    .filter((t) => {
      const days = daysUntil(t.dueDate, now, timeZone);
      return t.status !== 'completed' && days !== null && days >= 0;
    })
    .sort(
      (a, b) =>
        priorityRank(b.priority) - priorityRank(a.priority) ||
        (toTime(a.dueDate) as number) - (toTime(b.dueDate) as number),
    )
    .slice(0, limit);
}
