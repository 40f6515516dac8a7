import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
import { SUBCONTRACTOR_CATEGORY } from '#shared/rules/subs-board.ts';
import { todayIn } from '#shared/rules/dates.ts';
import { TaskCreateSchema } from '#shared/schemas/task.ts';
import type { TaskRow } from '#sync/db.ts';
import { formSchema } from '#web/lib/form-patch.ts';
import { toDateInput, withTimeOf } from '#web/features/projects/utils/dates.ts';
import { fieldErrors, type FieldErrors } from '#web/lib/field-errors.ts';
import type { TaskPriority, TaskStatus } from '#web/features/projects/utils/task-form.ts';

/** Select values standing for null: 'unassigned' is sent as a null assignee (spec 02 section 5). */
export const UNASSIGNED = 'unassigned';
/** The project select's "none" value, refused with 'Please select a project' (spec 02 section 5). */
export const NO_PROJECT = 'none';

/** Spec 02 section 5, word for word. */
export const PROJECT_REQUIRED = 'Project selection is required';
export const PROJECT_NONE = 'Please select a project';
export const TITLE_REQUIRED = 'Title is required';

export interface SubTaskFormValues {
  title: string;
  description: string;
  projectId: string;
  status: TaskStatus;
  priority: TaskPriority;
  assigneeId: string;
  dueDate: string;
  isMilestone: boolean;
}
export type SubTaskField = keyof SubTaskFormValues;

const LABELS: Record<SubTaskField, string> = {
  title: 'Title',
  description: 'Description',
  projectId: 'Project',
  status: 'Status',
  priority: 'Priority',
  assigneeId: 'Assignee',
  dueDate: 'Due date',
  isMilestone: 'Milestone',
};

/** What a valid form writes: the fields of POST/PATCH /api/tasks, category subcontractor. */
export interface SubTaskFields {
  title: string;
  description: string | null;
  category: typeof SUBCONTRACTOR_CATEGORY;
  projectId: string;
  status: TaskStatus;
  priority: TaskPriority;
  assigneeId: string | null;
  dueDate: string | null;
  isMilestone: boolean;
}

/** 'Create New Subcontractor Task': pending, medium, unassigned, no project chosen yet, not a milestone. */
export function newSubTaskForm(defaults: Partial<SubTaskFormValues> = {}): SubTaskFormValues {
  return {
    title: '',
    description: '',
    projectId: '',
    status: 'pending',
    priority: 'medium',
    assigneeId: UNASSIGNED,
    dueDate: '',
    isMilestone: false,
    ...defaults,
  };
}

export function subTaskToForm(t: TaskRow): SubTaskFormValues {
  return {
    title: t.title ?? '',
    description: t.description ?? '',
    projectId: t.projectId ?? '',
    status: TASK_STATUSES.find((s) => s === t.status) ?? 'pending',
    priority: TASK_PRIORITIES.find((p) => p === t.priority) ?? 'medium',
    assigneeId: t.assigneeId ?? UNASSIGNED,
    dueDate: toDateInput(t.dueDate),
    isMilestone: t.isMilestone === true,
  };
}

export interface SubTaskFormContext {
  now: Date;
  timeZone: string;
  /** The due date the form loaded: keeping an already past date is allowed. */
  initialDueDate?: string;
  /** The stored due date (ISO): a new day keeps its time of day. */
  storedDueDate?: string | null;
}

/**
 * The subcontractor task form (spec 02 section 5): a project is required, a title is required, and a new
 * due date is not in the past (the picker's rule). The shared task schema checks the rest, as the server does.
 */
export function validateSubTaskForm(
  values: SubTaskFormValues,
  ctx: SubTaskFormContext,
): { ok: true; data: SubTaskFields } | { ok: false; errors: FieldErrors<SubTaskField> } {
  const input = {
    title: values.title,
    description: values.description.trim() === '' ? null : values.description,
    category: SUBCONTRACTOR_CATEGORY,
    projectId: values.projectId === '' || values.projectId === NO_PROJECT ? null : values.projectId,
    status: values.status,
    priority: values.priority,
    assigneeId: values.assigneeId === UNASSIGNED || values.assigneeId === '' ? null : values.assigneeId,
    dueDate: values.dueDate === '' ? null : values.dueDate,
    isMilestone: values.isMilestone,
  };
  const parsed = TaskCreateSchema.safeParse(input);
  const errors: FieldErrors<SubTaskField> = parsed.success ? {} : fieldErrors(parsed.error, LABELS);
  if (values.title.trim() === '') errors.title = TITLE_REQUIRED;
  if (values.projectId === NO_PROJECT) errors.projectId = PROJECT_NONE;
  else if (values.projectId === '') errors.projectId = PROJECT_REQUIRED;
  const changed = values.dueDate !== (ctx.initialDueDate ?? '');
  if (
    !errors.dueDate &&
    values.dueDate !== '' &&
    changed &&
    values.dueDate < todayIn(ctx.now, ctx.timeZone)
  ) {
    errors.dueDate = 'Due date cannot be in the past';
  }
  if (!parsed.success || Object.keys(errors).length > 0 || input.projectId === null)
    return { ok: false, errors };
  const d = parsed.data;
  return {
    ok: true,
    data: {
      title: d.title,
      description: d.description ?? null,
      category: SUBCONTRACTOR_CATEGORY,
      projectId: input.projectId,
      status: d.status,
      priority: d.priority,
      assigneeId: d.assigneeId ?? null,
      dueDate: d.dueDate ? withTimeOf(values.dueDate, ctx.storedDueDate) : null,
      isMilestone: d.isMilestone,
    },
  };
}

export const subTaskFormSchema = (ctx: SubTaskFormContext) =>
  formSchema<SubTaskFormValues, SubTaskFields>((values) => validateSubTaskForm(values, ctx));
