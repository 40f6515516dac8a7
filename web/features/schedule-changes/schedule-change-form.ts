import { ScheduleChangeCreateSchema, ScheduleChangePatchSchema } from '#shared/schemas/schedule-change.ts';
import { todayIn } from '#shared/rules/dates.ts';
import { formSchema, type Validated } from '#web/lib/form-patch.ts';

/** The controls of the schedule-change form, as text (dates as `YYYY-MM-DD`, '' when empty). */
export interface ScheduleChangeFormValues {
  taskId: string;
  reason: string;
  originalDate: string;
  newDate: string;
}
export type ScheduleChangeField = keyof ScheduleChangeFormValues;

/** What a valid form writes: the fields of POST/PATCH /api/schedule-changes (dates as ISO-8601 UTC). */
export interface ScheduleChangeFields {
  taskId: string;
  reason: string;
  originalDate: string | null;
  newDate: string;
}

export const SCHEDULE_CHANGE_MESSAGES = {
  task: 'Please select a task',
  newDate: 'New Requested Date is required',
  sameDate: 'New Requested Date is the same as the Original Date: choose another day',
  pastDate: 'New Requested Date cannot be in the past',
} as const;

export interface ScheduleChangeFormContext {
  /** `edit` sends a patch (no task); the others create a request. */
  mode: 'request' | 'update' | 'edit';
  now: Date;
  /** The company's time zone: what "today" is. */
  timeZone: string;
  /** The values the form loaded: a date the user did not touch may stay in the past. */
  initial: ScheduleChangeFormValues;
  /**
   * The stored instant behind the original date of a task (its due date; in `edit` the request's stored
   * original date): an untouched date is sent exactly as stored, and a new day keeps its time of day.
   */
  storedOriginal: (taskId: string) => string | null;
  /** In `edit`: the request's stored new date, sent unchanged when its day is unchanged. */
  storedNew?: string | null;
}

/** A stored date as the value of a date input (its UTC day, as the forms show due dates), or ''. */
export function toDayInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : new Date(t).toISOString().slice(0, 10);
}

/**
 * The instant a date input means: the stored value itself when the day is unchanged, else the day at the
 * stored value's time of day (UTC), so moving a task due at 15:00 keeps it due at 15:00; midnight UTC
 * without a stored value (a date-only value on the wire).
 */
export function dayToIso(day: string, stored: string | null | undefined): string {
  const t = stored ? Date.parse(stored) : Number.NaN;
  if (Number.isNaN(t)) return `${day}T00:00:00.000Z`;
  const iso = new Date(t).toISOString();
  return iso.slice(0, 10) === day ? iso : `${day}${iso.slice(10)}`;
}

/** The defaults of spec 02 section 5: no task, no reason, both dates today (company's zone). */
export function emptyScheduleChangeForm(now: Date, timeZone: string): ScheduleChangeFormValues {
  const today = todayIn(now, timeZone);
  return { taskId: '', reason: '', originalDate: today, newDate: today };
}

/**
 * Validates the form with the shared schedule-change schemas (reason required) plus what the user must
 * hear before a request goes out: a task, a new date, a new date other than the original one, and not in
 * the past (unless it is the date the form loaded).
 */
export function validateScheduleChangeForm(
  values: ScheduleChangeFormValues,
  ctx: ScheduleChangeFormContext,
): Validated<ScheduleChangeFields, ScheduleChangeField> {
  const errors: Partial<Record<ScheduleChangeField, string>> = {};
  if (ctx.mode !== 'edit' && values.taskId === '') errors.taskId = SCHEDULE_CHANGE_MESSAGES.task;
  const storedOriginal = ctx.mode === 'edit' ? ctx.storedOriginal('') : ctx.storedOriginal(values.taskId);
  const originalDate = values.originalDate === '' ? null : dayToIso(values.originalDate, storedOriginal);
  const newStored = ctx.mode === 'edit' ? (ctx.storedNew ?? storedOriginal) : storedOriginal;
  const newDate = values.newDate === '' ? '' : dayToIso(values.newDate, newStored);
  const body = { reason: values.reason, originalDate, newDate };
  const parsed =
    ctx.mode === 'edit'
      ? ScheduleChangePatchSchema.safeParse(body)
      : ScheduleChangeCreateSchema.safeParse({ ...body, taskId: values.taskId || undefined });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'reason' || field === 'originalDate' || field === 'newDate') {
        errors[field] ??= issue.message;
      }
    }
  }
  if (values.newDate === '') errors.newDate = SCHEDULE_CHANGE_MESSAGES.newDate;
  else if (values.newDate === values.originalDate) errors.newDate = SCHEDULE_CHANGE_MESSAGES.sameDate;
  else if (values.newDate !== ctx.initial.newDate && values.newDate < todayIn(ctx.now, ctx.timeZone)) {
    errors.newDate = SCHEDULE_CHANGE_MESSAGES.pastDate;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    data: { taskId: values.taskId, reason: parsed.data.reason ?? '', originalDate, newDate },
  };
}

/** The form's schema for `usePatchForm`: the text of the controls in, the fields of the API out. */
export const scheduleChangeFormSchema = (ctx: ScheduleChangeFormContext) =>
  formSchema<ScheduleChangeFormValues, ScheduleChangeFields>((values) =>
    validateScheduleChangeForm(values, ctx),
  );
