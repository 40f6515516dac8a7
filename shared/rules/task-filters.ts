/**
 * The filters of the Task Management screen (spec 02 section 2; DECISIONS.md: the Filters panel's Project,
 * Due Date and Assignee selects filter, and every filter lives in the URL query so a view can be
 * bookmarked). Pure: the screen passes `now`, the company's time zone and the signed-in user's id.
 */
import { TASK_PRIORITIES, TASK_STATUSES } from '../enums.ts';
import { daysUntil, isDueThisWeek, type DateInput } from './dates.ts';
import { isTaskOverdue } from './due-date-text.ts';

export const DUE_FILTERS = ['overdue', 'today', 'week', 'none'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];

export interface TaskFilters {
  /** Free text matched against title and description, case-insensitive. */
  search: string;
  /** 'all' or a task status. */
  status: string;
  /** 'all' or a task priority. */
  priority: string;
  /** 'all' or a project id. */
  project: string;
  /** 'all' or a due-date window. */
  due: 'all' | DueFilter;
  /** 'all', 'me' (Assigned to Me), 'unassigned', or a user id. */
  assignee: string;
}

export const DEFAULT_TASK_FILTERS: Readonly<TaskFilters> = Object.freeze({
  search: '',
  status: 'all',
  priority: 'all',
  project: 'all',
  due: 'all',
  assignee: 'all',
});

/** The URL query keys of each filter (short, so a shared link stays readable). */
const KEYS: Record<keyof TaskFilters, string> = {
  search: 'q',
  status: 'status',
  priority: 'priority',
  project: 'project',
  due: 'due',
  assignee: 'assignee',
};

const oneOf = <T extends string>(list: readonly T[], v: string | null): v is T =>
  v !== null && (list as readonly string[]).includes(v);

/**
 * The filters a URL query names; a missing or unknown value is 'all', so a mistyped or stale bookmark
 * shows every task rather than an error.
 */
export function filtersFromQuery(params: URLSearchParams): TaskFilters {
  const status = params.get(KEYS.status);
  const priority = params.get(KEYS.priority);
  const due = params.get(KEYS.due);
  const project = params.get(KEYS.project);
  const assignee = params.get(KEYS.assignee);
  return {
    search: params.get(KEYS.search) ?? '',
    status: oneOf(TASK_STATUSES, status) ? status : 'all',
    priority: oneOf(TASK_PRIORITIES, priority) ? priority : 'all',
    project: project && project.length <= 64 ? project : 'all',
    due: oneOf(DUE_FILTERS, due) ? due : 'all',
    assignee: assignee && assignee.length <= 64 ? assignee : 'all',
  };
}

/**
 * `params` with the filters written in (defaults left out, other keys kept): the query of a bookmarkable
 * view.
 */
export function filtersToQuery(filters: TaskFilters, params = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.keys(KEYS) as (keyof TaskFilters)[]) {
    const value = filters[key];
    if (value === DEFAULT_TASK_FILTERS[key] || value === '') next.delete(KEYS[key]);
    else next.set(KEYS[key], value);
  }
  return next;
}

/** Whether any filter differs from 'show everything' (the search counts once it has non-blank text). */
export function hasActiveFilters(f: TaskFilters): boolean {
  return (
    f.search.trim() !== '' ||
    f.status !== 'all' ||
    f.priority !== 'all' ||
    f.project !== 'all' ||
    f.due !== 'all' ||
    f.assignee !== 'all'
  );
}

/** The task fields the filters read. */
export interface FilterableTask {
  title?: string | null;
  description?: string | null;
  status?: string | null;
  priority?: string | null;
  projectId?: string | null;
  assigneeId?: string | null;
  dueDate?: DateInput;
}

export interface FilterContext {
  now: Date;
  timeZone: string;
  /** The signed-in user ('Assigned to Me'). */
  userId: string;
}

/** The lower-cased text the search looks in; callers may cache it per row. */
export const searchText = (t: FilterableTask): string =>
  `${t.title ?? ''}\n${t.description ?? ''}`.toLowerCase();

/**
 * A predicate for the tasks the filters keep. `textOf` lets a caller reuse a cached `searchText` of each row
 * (the screen filters 10,000 rows per keystroke).
 */
export function taskMatcher<T extends FilterableTask>(
  f: TaskFilters,
  ctx: FilterContext,
  textOf: (t: T) => string = searchText,
): (t: T) => boolean {
  const needle = f.search.trim().toLowerCase();
  const assignee = f.assignee === 'me' ? ctx.userId : f.assignee;
  return (t) => {
    if (f.status !== 'all' && t.status !== f.status) return false;
    if (f.priority !== 'all' && t.priority !== f.priority) return false;
    if (f.project !== 'all' && t.projectId !== f.project) return false;
    if (assignee === 'unassigned') {
      if (t.assigneeId) return false;
    } else if (assignee !== 'all' && t.assigneeId !== assignee) return false;
    if (f.due !== 'all' && !matchesDue(f.due, t, ctx)) return false;
    return needle === '' || textOf(t).includes(needle);
  };
}

function matchesDue(due: DueFilter, t: FilterableTask, ctx: FilterContext): boolean {
  switch (due) {
    case 'none':
      return t.dueDate === null || t.dueDate === undefined || t.dueDate === '';
    case 'overdue':
      return isTaskOverdue({ status: t.status ?? '', dueDate: t.dueDate }, ctx.now, ctx.timeZone);
    case 'today':
      return daysUntil(t.dueDate, ctx.now, ctx.timeZone) === 0;
    case 'week':
      return isDueThisWeek(t.dueDate, ctx.now, ctx.timeZone);
  }
}

const STATUS_WORDS: Record<string, string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
  blocked: 'Blocked',
};
const PRIORITY_WORDS: Record<string, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/**
 * The empty state's wording (spec 02 section 2: 'No tasks found', varying with the active search, status
 * and priority filters): what the user asked for, and what to do next.
 */
export function emptyStateText(f: TaskFilters): { title: string; description: string } {
  const parts: string[] = [];
  const needle = f.search.trim();
  if (needle !== '') parts.push(`matching "${needle}"`);
  if (f.status !== 'all') parts.push(`with status ${STATUS_WORDS[f.status] ?? f.status}`);
  if (f.priority !== 'all') parts.push(`with ${PRIORITY_WORDS[f.priority] ?? f.priority} priority`);
  if (parts.length > 0) {
    return {
      title: 'No tasks found',
      description: `No tasks ${parts.join(' and ')}. Try a different search or clear the filters.`,
    };
  }
  if (hasActiveFilters(f)) {
    return { title: 'No tasks found', description: 'No tasks match your filters. Try clearing them.' };
  }
  return { title: 'No tasks found', description: 'Get started by creating your first task.' };
}
