/**
 * The counts and groups of the Task Management screen (spec 02 sections 2, 4 and 9): the four tiles, and
 * the list's sections Project Tasks (per project, with its progress), Administrative Tasks and General
 * Tasks. Subcontractor tasks belong to Project Tasks (DECISIONS.md "Which tasks /tasks shows"). Pure:
 * `now` and the company's time zone come from the caller.
 */
import { addCalendarDays, dueDay, DUE_THIS_WEEK_DAYS, todayIn, type DateInput } from './dates.ts';
import { completedPercent, progressColour } from './progress-colour.ts';

export interface GroupableTask {
  id: string;
  title?: string | null;
  category?: string | null;
  status?: string | null;
  projectId?: string | null;
  dueDate?: DateInput;
}

export interface TaskTiles {
  total: number;
  overdue: number;
  dueThisWeek: number;
  completed: number;
}

/**
 * Total Tasks, Overdue (not completed, due day before today), Due This Week (due today up to 7 days
 * ahead, whatever the status) and Completed.
 */
export function taskTiles(tasks: readonly GroupableTask[], now: Date, timeZone: string): TaskTiles {
  // The same tests as `isTaskOverdue` and `isDueThisWeek` (calendar days of the company's zone), with today
  // and the window's end computed once instead of once per task: this runs over 10,000 rows.
  const today = todayIn(now, timeZone);
  const weekEnd = addCalendarDays(today, DUE_THIS_WEEK_DAYS);
  let overdue = 0;
  let dueThisWeek = 0;
  let completed = 0;
  for (const t of tasks) {
    const done = t.status === 'completed';
    if (done) completed += 1;
    const day = dueDay(t.dueDate);
    if (day === null) continue;
    if (!done && day < today) overdue += 1;
    if (day >= today && day <= weekEnd) dueThisWeek += 1;
  }
  return { total: tasks.length, overdue, dueThisWeek, completed };
}

export type TaskSection = 'project' | 'administrative' | 'general';

/** The list section of a task: project and subcontractor tasks under Project Tasks; unknown ones are General. */
export function sectionOf(category: string | null | undefined): TaskSection {
  if (category === 'project' || category === 'subcontractor') return 'project';
  if (category === 'administrative') return 'administrative';
  return 'general';
}

export interface ProjectGroup<T> {
  /** The project's id, or null for project tasks without a project. */
  projectId: string | null;
  name: string;
  tasks: T[];
  /** Rounded share of completed tasks of the group, in percent. */
  percent: number;
  /** #E53935 with an overdue task, #FB8C00 under 50% completed, #43A047 otherwise. */
  colour: string;
}

export interface TaskGroups<T> {
  projects: ProjectGroup<T>[];
  administrative: T[];
  general: T[];
}

/** Name shown for a group whose project is not on the device (deleted, or out of this user's scope). */
export const UNKNOWN_PROJECT = 'Unknown Project';
export const NO_PROJECT_GROUP = 'No Project';

/**
 * Splits tasks into the list's sections, keeping their order; project groups are ordered by project name
 * (then id), tasks without a project last.
 */
export function groupTasks<T extends GroupableTask>(
  tasks: readonly T[],
  projectNames: ReadonlyMap<string, string>,
  now: Date,
  timeZone: string,
): TaskGroups<T> {
  const byProject = new Map<string | null, T[]>();
  const administrative: T[] = [];
  const general: T[] = [];
  for (const t of tasks) {
    const section = sectionOf(t.category);
    if (section === 'administrative') administrative.push(t);
    else if (section === 'general') general.push(t);
    else {
      const key = t.projectId ?? null;
      let list = byProject.get(key);
      if (!list) byProject.set(key, (list = []));
      list.push(t);
    }
  }
  const projects: ProjectGroup<T>[] = [];
  for (const [projectId, list] of byProject) {
    const rows = list.map((t) => ({ status: t.status ?? '', dueDate: t.dueDate }));
    projects.push({
      projectId,
      name: projectId === null ? NO_PROJECT_GROUP : (projectNames.get(projectId) ?? UNKNOWN_PROJECT),
      tasks: list,
      percent: completedPercent(rows),
      colour: progressColour(rows, now, timeZone),
    });
  }
  projects.sort((a, b) => {
    if (a.projectId === null || b.projectId === null) return a.projectId === null ? 1 : -1;
    return a.name.localeCompare(b.name) || (a.projectId < b.projectId ? -1 : 1);
  });
  return { projects, administrative, general };
}

// One collator, built once: `localeCompare` builds one per call, which is what sorting 10,000 rows pays.
const titleOrder = new Intl.Collator('en');

/** Task order of every list: a due date first (earliest first), then by title, then id. */
export function compareTasks(a: GroupableTask, b: GroupableTask): number {
  const da = typeof a.dueDate === 'string' ? a.dueDate : a.dueDate ? a.dueDate.toISOString() : '';
  const db = typeof b.dueDate === 'string' ? b.dueDate : b.dueDate ? b.dueDate.toISOString() : '';
  if (da !== db) return da === '' ? 1 : db === '' ? -1 : da < db ? -1 : 1;
  const ta = a.title ?? '';
  const tb = b.title ?? '';
  if (ta !== tb) return titleOrder.compare(ta, tb);
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Status after the keyboard S toggle (spec 02 section 4): completed goes to pending, anything else to completed. */
export const toggledByShortcut = (status: string | null | undefined): string =>
  status === 'completed' ? 'pending' : 'completed';

/**
 * Status after the detail dialog's quick action (spec 02 section 4): 'Mark Incomplete' takes a completed
 * task to in-progress, 'Mark Complete' takes any other to completed.
 */
export const toggledByQuickAction = (status: string | null | undefined): string =>
  status === 'completed' ? 'in-progress' : 'completed';
