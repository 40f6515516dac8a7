import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
import { TaskFormSchema } from '#shared/schemas/task.ts';
import type { TaskRow } from '#sync/db.ts';
import { formSchema } from '#web/lib/form-patch.ts';
import { todayIn } from '#shared/rules/dates.ts';
import { toDateInput, withTimeOf } from './dates.ts';
import { fieldErrors, type FieldErrors } from '#web/lib/field-errors.ts';

export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
/** The categories a task made on the Projects screen can take (the subs board adds subcontractor). */
export const FORM_CATEGORIES = ['project', 'administrative', 'general'] as const;
export type TaskFormCategory = (typeof FORM_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<TaskFormCategory, string> = {
  project: 'Project Related',
  administrative: 'Administrative',
  general: 'General',
};
export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
  blocked: 'Blocked',
};
export const TASK_PRIORITY_LABELS: Record<TaskPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/** Select values standing for null ('No Project', 'Unassigned': spec 02 section 5 sends null for them). */
export const NO_PROJECT = 'none';
export const UNASSIGNED = 'unassigned';

export interface TaskFormValues {
  title: string;
  description: string;
  category: TaskFormCategory;
  projectId: string;
  status: TaskStatus;
  priority: TaskPriority;
  assigneeId: string;
  dueDate: string;
}
export type TaskField = keyof TaskFormValues;

export const TASK_FIELD_LABELS: Record<TaskField, string> = {
  title: 'Title',
  description: 'Description',
  category: 'Category',
  projectId: 'Project',
  status: 'Status',
  priority: 'Priority',
  assigneeId: 'Assignee',
  dueDate: 'Due date',
};

/** What a valid task form writes: the fields of POST/PATCH /api/tasks (spec 02 section 7). */
export interface TaskFields {
  title: string;
  description: string | null;
  category: TaskFormCategory;
  projectId: string | null;
  status: TaskStatus;
  priority: TaskPriority;
  assigneeId: string | null;
  dueDate: string | null;
}

export type TaskFormResult = { ok: true; data: TaskFields } | { ok: false; errors: FieldErrors<TaskField> };

/** 'Add Task to {project}': a project task of that project, pending, medium priority, unassigned. */
export function newTaskForm(projectId: string | null): TaskFormValues {
  return {
    title: '',
    description: '',
    category: 'project',
    projectId: projectId ?? NO_PROJECT,
    status: 'pending',
    priority: 'medium',
    assigneeId: UNASSIGNED,
    dueDate: '',
  };
}

export function taskToForm(t: TaskRow): TaskFormValues {
  return {
    title: t.title ?? '',
    description: t.description ?? '',
    category: FORM_CATEGORIES.find((c) => c === t.category) ?? 'project',
    projectId: t.projectId ?? NO_PROJECT,
    status: TASK_STATUSES.find((s) => s === t.status) ?? 'pending',
    priority: TASK_PRIORITIES.find((p) => p === t.priority) ?? 'medium',
    assigneeId: t.assigneeId ?? UNASSIGNED,
    dueDate: toDateInput(t.dueDate),
  };
}

/** 'No Project' is offered only when the category does not need a project (spec 02 section 5). */
export const showsNoProjectOption = (category: string): boolean => category !== 'project';

export interface TaskFormContext {
  now: Date;
  /** The company's time zone: what "today" is for the picker. */
  timeZone: string;
  /** The due date the task had when the edit form opened: keeping an already past date is allowed. */
  initialDueDate?: string;
  /** The stored due date (ISO) the form loaded: a new day keeps its time of day. */
  storedDueDate?: string | null;
}

/**
 * Validates the task form with the shared `TaskFormSchema` (title required; category project needs a
 * project, with the spec's message) plus the picker rule that a new due date is not in the past.
 */
export function validateTaskForm(values: TaskFormValues, ctx: TaskFormContext): TaskFormResult {
  const input = {
    title: values.title,
    description: values.description.trim() === '' ? null : values.description,
    category: values.category,
    projectId: values.projectId === NO_PROJECT || values.projectId === '' ? null : values.projectId,
    status: values.status,
    priority: values.priority,
    assigneeId: values.assigneeId === UNASSIGNED || values.assigneeId === '' ? null : values.assigneeId,
    dueDate: values.dueDate === '' ? null : values.dueDate,
  };
  const parsed = TaskFormSchema.safeParse(input);
  const errors: FieldErrors<TaskField> = parsed.success ? {} : fieldErrors(parsed.error, TASK_FIELD_LABELS);
  const changed = values.dueDate !== (ctx.initialDueDate ?? '');
  if (
    !errors.dueDate &&
    values.dueDate !== '' &&
    changed &&
    values.dueDate < todayIn(ctx.now, ctx.timeZone)
  ) {
    errors.dueDate = 'Due date cannot be in the past';
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const d = parsed.data;
  return {
    ok: true,
    data: {
      title: d.title,
      description: d.description ?? null,
      category: input.category,
      projectId: d.projectId ?? null,
      status: d.status,
      priority: d.priority,
      assigneeId: d.assigneeId ?? null,
      dueDate: d.dueDate ? withTimeOf(values.dueDate, ctx.storedDueDate) : null,
    },
  };
}

/** The form's schema for `usePatchForm`: the text of the controls in, the fields of the API out. */
export const taskFormSchema = (ctx: TaskFormContext) =>
  formSchema<TaskFormValues, TaskFields>((values) => validateTaskForm(values, ctx));
