import { z } from 'zod';
import { TASK_CATEGORIES, TASK_PRIORITIES, TASK_STATUSES } from '../enums.ts';
import { Id, NullableIsoDate, OptionalText, RequiredText } from './common.ts';

/** Spec 01 section 5 and spec 02 section 5, word for word. */
export const PROJECT_REQUIRED_MESSAGE = "Project selection is required when category is 'Project Related'";

const fields = {
  title: RequiredText('Title'),
  description: OptionalText(),
  projectId: Id.nullable(),
  category: z.enum(TASK_CATEGORIES),
  status: z.enum(TASK_STATUSES),
  priority: z.enum(TASK_PRIORITIES),
  assigneeId: Id.nullable(),
  dueDate: NullableIsoDate,
  isMilestone: z.boolean(),
  estimatedHours: z.number().min(0, 'must not be negative').max(100_000, 'is too large').nullable(),
};

/**
 * POST /api/tasks (spec 02 section 7): title required; category project, status pending, priority medium
 * by default. The project rule (category project needs a project) depends on the stored row for a patch,
 * so the server checks it on the merged task with `projectRequiredError`; `TaskFormSchema` adds it for forms.
 */
export const TaskCreateSchema = z.strictObject({
  id: Id.optional(),
  ...fields,
  projectId: fields.projectId.optional(),
  category: fields.category.default('project'),
  status: fields.status.default('pending'),
  priority: fields.priority.default('medium'),
  assigneeId: fields.assigneeId.optional(),
  dueDate: fields.dueDate.optional(),
  isMilestone: fields.isMilestone.default(false),
  estimatedHours: fields.estimatedHours.optional(),
});

/** PATCH /api/tasks/{id}: any subset of the fields, or only the status. */
export const TaskPatchSchema = z.strictObject(fields).partial();

/** The project rule on a whole task: the message when it is broken, else null. */
export function projectRequiredError(task: { category: string; projectId?: string | null }): string | null {
  return task.category === 'project' && !task.projectId ? PROJECT_REQUIRED_MESSAGE : null;
}

/** The create form's schema: the create fields plus the project rule, reported on projectId. */
export const TaskFormSchema = TaskCreateSchema.superRefine((task, ctx) => {
  const message = projectRequiredError(task);
  if (message) ctx.addIssue({ code: 'custom', path: ['projectId'], message });
});

export type TaskCreate = z.infer<typeof TaskCreateSchema>;
export type TaskPatch = z.infer<typeof TaskPatchSchema>;
