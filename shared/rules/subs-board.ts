/**
 * The Subcontractors board (spec 02 sections 2 and 9): which subcontractor tasks each tab shows, in which
 * order, computed from the rows the user can see, with `now` and the company's time zone passed in. The
 * device computes the tabs from its mirror with these functions, and the browser tests compute the same
 * tabs from the API with them, so the board and its proof cannot drift apart.
 */
import { dueDay, todayIn, toTime, weekDaysIn, type CalendarDay, type DateInput } from './dates.ts';

/** The category of the tasks the board shows (spec 02 section 3: 'subcontractor on the subs board'). */
export const SUBCONTRACTOR_CATEGORY = 'subcontractor';

/** Recent subcontractor activity rows on the Overview (spec 02 section 9). */
export const RECENT_ACTIVITY_ROWS = 5;

/** The fields of a task the board reads (a mirror row may lack some until it is pulled). */
export interface BoardTask {
  id: string;
  title?: string | null;
  status?: string | null;
  dueDate?: DateInput;
  isMilestone?: boolean | null;
  updatedAt?: string | null;
  createdAt?: string | null;
}

/** A user of the company as the board counts subcontractors. */
export interface BoardUser {
  id: string;
  role?: string | null;
  isActive?: boolean | null;
}

/** Due date first (no due date last), then title, then id: the same order in every tab. */
export function compareBoardTasks(a: BoardTask, b: BoardTask): number {
  const da = toTime(a.dueDate);
  const db = toTime(b.dueDate);
  if (da !== db) {
    if (da === null) return 1;
    if (db === null) return -1;
    return da - db;
  }
  return (a.title ?? '').localeCompare(b.title ?? '') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const sorted = <T extends BoardTask>(tasks: Iterable<T>): T[] => [...tasks].sort(compareBoardTasks);

/** Daily Tasks: the tasks due today in the company's zone, completed ones included (their box is ticked). */
export function dailyTasks<T extends BoardTask>(tasks: readonly T[], now: Date, timeZone: string): T[] {
  const today = todayIn(now, timeZone);
  return sorted(tasks.filter((t) => dueDay(t.dueDate) === today));
}

/** One day of the Weekly View. */
export interface WeekDay<T> {
  day: CalendarDay;
  tasks: T[];
}

/**
 * Weekly View: the seven days Sunday to Saturday of the current week in the company's zone, each with the
 * tasks due that day (spec 02 section 9: 'Weekly view: Sunday to Saturday').
 */
export function weeklyView<T extends BoardTask>(
  tasks: readonly T[],
  now: Date,
  timeZone: string,
): WeekDay<T>[] {
  const days = weekDaysIn(now, timeZone);
  const byDay = new Map<CalendarDay, T[]>(days.map((d) => [d, []]));
  for (const t of tasks) {
    const day = dueDay(t.dueDate);
    if (day !== null) byDay.get(day)?.push(t);
  }
  return days.map((day) => ({ day, tasks: sorted(byDay.get(day) ?? []) }));
}

/** Milestones: the tasks flagged as milestones. */
export function milestoneTasks<T extends BoardTask>(tasks: readonly T[]): T[] {
  return sorted(tasks.filter((t) => t.isMilestone === true));
}

/** Groups tasks by a key (null for none), each group in board order; groups in first-seen order. */
export function groupTasks<T extends BoardTask>(
  tasks: readonly T[],
  keyOf: (t: T) => string | null | undefined,
): Map<string | null, T[]> {
  const groups = new Map<string | null, T[]>();
  for (const t of sorted(tasks)) {
    const key = keyOf(t) ?? null;
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  return groups;
}

/** Whether a user is a subcontractor who can be given work: role kind subcontractor, not deactivated. */
export function isActiveSubcontractor(u: BoardUser): boolean {
  return u.role === 'subcontractor' && u.isActive !== false;
}

/** The Overview's three counts. */
export interface BoardOverview {
  /** Subcontractor users of the company who are active. */
  activeSubcontractors: number;
  /** Tasks whose status is pending (the status the badge shows as 'Pending'). */
  pendingTasks: number;
  /** Tasks due today in the company's zone: the length of Daily Tasks. */
  dueToday: number;
}

export function boardOverview(
  tasks: readonly BoardTask[],
  users: readonly BoardUser[],
  now: Date,
  timeZone: string,
): BoardOverview {
  return {
    activeSubcontractors: users.filter(isActiveSubcontractor).length,
    pendingTasks: tasks.filter((t) => t.status === 'pending').length,
    dueToday: dailyTasks(tasks, now, timeZone).length,
  };
}

/**
 * Recent activity: the tasks changed most recently (last change, else creation), newest first, at most
 * `RECENT_ACTIVITY_ROWS`. Read from the tasks themselves so it works offline from the mirror.
 */
export function recentActivity<T extends BoardTask>(tasks: readonly T[]): T[] {
  const at = (t: T) => toTime(t.updatedAt) ?? toTime(t.createdAt) ?? 0;
  return [...tasks]
    .sort((a, b) => at(b) - at(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, RECENT_ACTIVITY_ROWS);
}
