/**
 * The counts and groups of the Task Management screen (spec 02 sections 2, 4 and 9): the four tiles, and
 * the list's sections Project Tasks (per project, with its progress), Administrative Tasks and General
 * Tasks. Subcontractor tasks belong to Project Tasks (DECISIONS.md "Which tasks /tasks shows"). Pure:
 * `now` and the company's time zone come from the caller.
 */
import { addCalendarDays, dueDay, DUE_THIS_WEEK_DAYS, todayIn, type DateInput } from './dates.ts';
import { PROGRESS_AMBER, PROGRESS_GREEN, PROGRESS_RED } from './progress-colour.ts';

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
export function taskTiles<T extends GroupableTask>(
  tasks: readonly T[],
  now: Date,
  timeZone: string,
  dayOf: (t: T) => string | null = (t) => dueDay(t.dueDate),
): TaskTiles {
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
    const day = dayOf(t);
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

/** The group a task is listed in: its section, and under Project Tasks its project ('' for none). */
export function groupKeyOf(t: GroupableTask): string {
  const section = sectionOf(t.category);
  return section === 'project' ? `project:${t.projectId ?? ''}` : section;
}

/**
 * Tasks in list order and split into their groups (key: `groupKeyOf`), each group in list order. Built once
 * from every task, then patched per change (`patchTaskIndex`), so a change to one task never regroups the
 * others: with 10,000 tasks a full regroup per change costs more than a frame.
 */
export interface TaskIndex<T> {
  sorted: readonly T[];
  groups: ReadonlyMap<string, readonly T[]>;
}

/** The index of `tasks`, which must already be in list order (`compareTasks`). */
export function indexTasks<T extends GroupableTask>(tasks: readonly T[]): TaskIndex<T> {
  const groups = new Map<string, T[]>();
  for (const t of tasks) {
    const key = groupKeyOf(t);
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(t);
  }
  return { sorted: tasks, groups };
}

/** Where `t` goes in `list` (in list order) so the order holds. */
function insertionPoint<T extends GroupableTask>(list: readonly T[], t: T): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareTasks(list[mid]!, t) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function without<T extends GroupableTask>(list: T[], t: T): void {
  const at = insertionPoint(list, t);
  // Equal sort keys are impossible (the id breaks ties), so the row is at `at` when present.
  if (list[at] === t) list.splice(at, 1);
  else {
    const i = list.indexOf(t);
    if (i >= 0) list.splice(i, 1);
  }
}

/**
 * A new index with the `removed` rows (the objects in the index) taken out and the `added` rows put in
 * order. Copy on write: the lists of groups no row of the change belongs to stay the same objects, so what
 * was computed from them (progress, list items) is reused.
 */
export function patchTaskIndex<T extends GroupableTask>(
  index: TaskIndex<T>,
  removed: readonly T[],
  added: readonly T[],
): TaskIndex<T> {
  if (removed.length === 0 && added.length === 0) return index;
  const sorted = index.sorted.slice();
  const groups = new Map(index.groups as ReadonlyMap<string, T[]>);
  const copied = new Set<string>();
  const groupOf = (t: T): T[] => {
    const key = groupKeyOf(t);
    let list = groups.get(key);
    if (!copied.has(key)) {
      copied.add(key);
      list = list ? list.slice() : [];
      groups.set(key, list);
    }
    return list!;
  };
  for (const t of removed) {
    without(sorted, t);
    without(groupOf(t), t);
  }
  for (const t of added) {
    sorted.splice(insertionPoint(sorted, t), 0, t);
    const list = groupOf(t);
    list.splice(insertionPoint(list, t), 0, t);
  }
  for (const key of copied) if (groups.get(key)?.length === 0) groups.delete(key);
  return { sorted, groups };
}

/** Completed share and colour of a project's group, with today computed once for the whole group. */
function projectProgress(
  tasks: readonly GroupableTask[],
  today: string,
  dayOf: (t: GroupableTask) => string | null,
): { percent: number; colour: string } {
  let completed = 0;
  let overdue = false;
  for (const t of tasks) {
    if (t.status === 'completed') completed += 1;
    else if (!overdue) {
      const day = dayOf(t);
      overdue = day !== null && day < today;
    }
  }
  // The rules of `completedPercent` and `progressColour` (spec 02 sections 4 and 9) over precomputed days.
  const percent = tasks.length === 0 ? 0 : Math.round((completed / tasks.length) * 100);
  const colour = overdue ? PROGRESS_RED : tasks.length > 0 && percent < 50 ? PROGRESS_AMBER : PROGRESS_GREEN;
  return { percent, colour };
}

const progressMemo = new WeakMap<
  readonly GroupableTask[],
  { today: string; value: ReturnType<typeof projectProgress> }
>();

/**
 * The list's sections from an index, keeping only the tasks `keep` accepts (null: every task): project
 * groups ordered by project name (then id), tasks without a project last. Progress is remembered per
 * group list and day, so an unchanged group is not counted again.
 */
export function viewTaskGroups<T extends GroupableTask>(
  index: TaskIndex<T>,
  projectNames: ReadonlyMap<string, string>,
  keep: ((t: T) => boolean) | null,
  now: Date,
  timeZone: string,
  dayOf: (t: GroupableTask) => string | null = (t) => dueDay(t.dueDate),
): TaskGroups<T> {
  const today = todayIn(now, timeZone);
  const pick = (list: readonly T[] | undefined): T[] =>
    !list ? [] : keep ? list.filter(keep) : (list as T[]);
  const projects: ProjectGroup<T>[] = [];
  for (const [key, list] of index.groups) {
    if (!key.startsWith('project:')) continue;
    const tasks = pick(list);
    if (tasks.length === 0) continue;
    let progress = progressMemo.get(tasks);
    if (!progress || progress.today !== today) {
      progress = { today, value: projectProgress(tasks, today, dayOf) };
      progressMemo.set(tasks, progress);
    }
    const projectId = key.length > 'project:'.length ? key.slice('project:'.length) : null;
    projects.push({
      projectId,
      name: projectId === null ? NO_PROJECT_GROUP : (projectNames.get(projectId) ?? UNKNOWN_PROJECT),
      tasks,
      ...progress.value,
    });
  }
  projects.sort((a, b) => {
    if (a.projectId === null || b.projectId === null) return a.projectId === null ? 1 : -1;
    return a.name.localeCompare(b.name) || (a.projectId < b.projectId ? -1 : 1);
  });
  return {
    projects,
    administrative: pick(index.groups.get('administrative')),
    general: pick(index.groups.get('general')),
  };
}

/**
 * Splits tasks (in list order) into the list's sections, keeping their order; project groups are ordered
 * by project name (then id), tasks without a project last.
 */
export function groupTasks<T extends GroupableTask>(
  tasks: readonly T[],
  projectNames: ReadonlyMap<string, string>,
  now: Date,
  timeZone: string,
): TaskGroups<T> {
  return viewTaskGroups(indexTasks(tasks), projectNames, null, now, timeZone);
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
