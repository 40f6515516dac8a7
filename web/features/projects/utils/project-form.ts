import { PROJECT_STATUSES } from '#shared/enums.ts';
import { ProjectCreateSchema, ProjectPatchSchema } from '#shared/schemas/project.ts';
import type { ProjectRow } from '#sync/db.ts';
import { formSchema } from '#web/lib/form-patch.ts';
import { todayIn } from '#shared/rules/dates.ts';
import { toDateInput, withTimeOf } from './dates.ts';
import { fieldErrors, type FieldErrors } from '#web/lib/field-errors.ts';

export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The Create/Edit Project form as typed: every field is the text of its control. */
export interface ProjectFormValues {
  name: string;
  description: string;
  location: string;
  status: ProjectStatus;
  progress: string;
  dueDate: string;
}

export type ProjectField = keyof ProjectFormValues;

export const PROJECT_FIELD_LABELS: Record<ProjectField, string> = {
  name: 'Name',
  description: 'Description',
  location: 'Location',
  status: 'Status',
  progress: 'Progress',
  dueDate: 'Due date',
};

/** What a valid form writes: the fields of POST/PATCH /api/projects (spec 01 section 7). */
export interface ProjectFields {
  name: string;
  description: string | null;
  location: string;
  status: ProjectStatus;
  progress: number;
  dueDate: string | null;
}

export type ProjectFormResult =
  { ok: true; data: ProjectFields } | { ok: false; errors: FieldErrors<ProjectField> };

/** New projects start active with progress 0 (spec 01 sections 4 and 9). */
export function emptyProjectForm(): ProjectFormValues {
  return { name: '', description: '', location: '', status: 'active', progress: '0', dueDate: '' };
}

export function projectToForm(p: ProjectRow): ProjectFormValues {
  const status = PROJECT_STATUSES.find((s) => s === p.status) ?? 'active';
  return {
    name: p.name ?? '',
    description: p.description ?? '',
    location: p.location ?? '',
    status,
    progress: String(p.progress ?? 0),
    dueDate: toDateInput(p.dueDate),
  };
}

/** Spec 01 section 5: a non-numeric progress entry becomes 0; a number is kept as typed (range checked later). */
export function parseProgress(raw: string): number {
  const text = raw.trim();
  if (text === '') return 0;
  const n = Number(text);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The earliest due date the picker offers: today on both forms, and never before 1900 on create
 * (spec 01 section 5). Today is later than 1900, so both come down to today; the floor is kept for a
 * device whose clock is badly wrong.
 */
export function minDueDate(mode: 'create' | 'edit', now: Date, timeZone: string): string {
  const today = todayIn(now, timeZone);
  return mode === 'create' && today < '1900-01-01' ? '1900-01-01' : today;
}

export interface ProjectFormContext {
  mode: 'create' | 'edit';
  now: Date;
  /** The company's time zone: what "today" is for the picker. */
  timeZone: string;
  /** The due date the project had when the edit form opened: keeping an already past date is allowed. */
  initialDueDate?: string;
  /** The stored due date (ISO) the form loaded: a new day keeps its time of day. */
  storedDueDate?: string | null;
}

/**
 * Validates the Create/Edit Project form with the shared schemas (so the device and the server agree)
 * plus the picker limits on the due date.
 */
export function validateProjectForm(values: ProjectFormValues, ctx: ProjectFormContext): ProjectFormResult {
  const input = {
    name: values.name,
    description: values.description.trim() === '' ? null : values.description,
    location: values.location,
    status: values.status,
    progress: parseProgress(values.progress),
    dueDate: values.dueDate === '' ? null : values.dueDate,
  };
  const parsed =
    ctx.mode === 'create' ? ProjectCreateSchema.safeParse(input) : ProjectPatchSchema.safeParse(input);
  const errors: FieldErrors<ProjectField> = parsed.success
    ? {}
    : fieldErrors(parsed.error, PROJECT_FIELD_LABELS);
  const min = minDueDate(ctx.mode, ctx.now, ctx.timeZone);
  const changed = ctx.mode === 'create' || values.dueDate !== (ctx.initialDueDate ?? '');
  // Said as the picker says it (spec 01 section 5), over the API's own 1900-9999 range message.
  if (values.dueDate !== '' && changed && values.dueDate < min) {
    errors.dueDate =
      values.dueDate < '1900-01-01' ? 'Due date cannot be before 1900' : 'Due date cannot be in the past';
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const d = parsed.data;
  return {
    ok: true,
    data: {
      name: d.name ?? input.name,
      description: d.description ?? null,
      location: d.location ?? input.location,
      status: d.status ?? input.status,
      progress: d.progress ?? input.progress,
      dueDate: d.dueDate ? withTimeOf(values.dueDate, ctx.storedDueDate) : null,
    },
  };
}

/** The form's schema for `usePatchForm`: the text of the controls in, the fields of the API out. */
export const projectFormSchema = (ctx: ProjectFormContext) =>
  formSchema<ProjectFormValues, ProjectFields>((values) => validateProjectForm(values, ctx));
