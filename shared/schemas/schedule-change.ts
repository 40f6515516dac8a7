import { z } from 'zod';
import { Id, IsoDate, NullableIsoDate, RequiredText } from './common.ts';

const fields = {
  reason: RequiredText('Reason', 2000),
  originalDate: NullableIsoDate,
  newDate: IsoDate,
};

/**
 * POST /api/schedule-changes (spec 02 section 7). The spec's client sends a userId (a placeholder): it is
 * accepted and ignored, the requester is always the session user (DECISIONS.md). A missing originalDate
 * defaults to the task's due date on the server.
 */
export const ScheduleChangeCreateSchema = z.strictObject({
  id: Id.optional(),
  taskId: Id,
  userId: z.unknown().optional(),
  ...fields,
  originalDate: fields.originalDate.optional(),
});

/** The decision an approver takes on a pending request (DECISIONS.md: approving moves the task's due date). */
export const SCHEDULE_CHANGE_DECISIONS = ['approved', 'rejected'] as const;

/**
 * PATCH /api/schedule-changes/{id}: a decision `{status}`, an edit of reason/originalDate/newDate, or (for
 * an approver) both at once, the edit applied first.
 */
export const ScheduleChangePatchSchema = z.strictObject({
  status: z.enum(SCHEDULE_CHANGE_DECISIONS).optional(),
  reason: fields.reason.optional(),
  originalDate: fields.originalDate.optional(),
  newDate: fields.newDate.optional(),
});

export type ScheduleChangeCreate = z.infer<typeof ScheduleChangeCreateSchema>;
export type ScheduleChangePatch = z.infer<typeof ScheduleChangePatchSchema>;
