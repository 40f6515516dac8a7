import { and, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { dayInWords } from '#shared/rules/field-words.ts';
import { ScheduleChangeCreateSchema, ScheduleChangePatchSchema } from '#shared/schemas/schedule-change.ts';
import type { SessionUser } from '../context.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { badRequest, conflict, forbidden, notFound, type HttpError } from '../http.ts';
import {
  idTaken,
  lookupVisible,
  nextVersion,
  notify,
  settleNotificationsAbout,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  usersWithPermission,
  validate,
  type MutationContext,
  type Visibility,
} from './core.ts';
import { statements } from './statements.ts';
import { applyTaskPatch, findVisibleTask } from './tasks.ts';

type ScheduleChanges = typeof schema.scheduleChanges;

export const APPROVE_PERMISSION = 'schedule_changes:approve';

export type ScheduleChangeRow = ScheduleChanges['$inferSelect'];

/** A live schedule change the user may see (on a task the user may see), or 404. */
export function* findVisibleScheduleChange(
  c: Visibility,
  user: SessionUser,
  id: string,
): Op<ScheduleChangeRow> {
  const row = yield* lookupVisible(c, statements.scheduleChange, user, id);
  if (!row) throw notFound('Schedule change');
  return row;
}

/** A due date in a notification's sentence: 'Dec 5, 2026' (the raw '2026-12-05' read as a code). */
const day = (iso: string | null) => (iso ? dayInWords(iso) : 'no date');

function requesterName(user: SessionUser): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return user.name || full || user.email;
}

/**
 * A request to move a task's due date. Anyone who can see the task may ask; the requester is the session
 * user whatever userId the body carries. Every approver but the requester is notified.
 */
export function* createScheduleChange(ctx: MutationContext, input: unknown): Op<ScheduleChangeRow> {
  requirePermission(ctx, 'schedule_changes:create');
  const { userId: _ignored, ...data } = validate(ScheduleChangeCreateSchema, input);
  const id = data.id ?? newId();
  if (yield* idTaken(ctx, 'schedule_changes', id)) {
    throw conflict('A schedule change with this id already exists');
  }
  const task = yield* findVisibleTask(ctx, ctx.user, data.taskId);
  const values = {
    ...data,
    originalDate: data.originalDate === undefined ? task.dueDate : data.originalDate,
  };
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.scheduleChanges.insert(ctx.sql, {
    ...values,
    id,
    userId: ctx.user.id,
    companyId: ctx.user.companyId,
    status: 'pending',
    createdAt: occurredIso(ctx),
    ...stampFields(ctx, version, [...Object.keys(values).filter((k) => k !== 'id'), 'userId', 'status']),
  });
  for (const approver of yield* usersWithPermission(ctx, APPROVE_PERMISSION)) {
    if (approver === ctx.user.id) continue;
    yield* notify(ctx, {
      userId: approver,
      title: 'Schedule change requested',
      message: `${requesterName(ctx.user)} asked to move "${task.title}" from ${day(row.originalDate)} to ${day(row.newDate)}`,
      type: 'info',
      relatedEntityType: 'schedule_change',
      relatedEntityId: id,
    });
  }
  yield* recordActivity(ctx, {
    actionType: 'schedule_change_requested',
    description: `Requested a schedule change for ${task.title}`,
    entityType: 'schedule_change',
    entityId: id,
  });
  return row;
}

/** Why a decided request cannot change, naming who decided it (another device may have queued a decision). */
function* alreadyDecided(ctx: MutationContext, current: ScheduleChangeRow): Op<HttpError> {
  const who = current.decidedBy
    ? yield* io(
        ctx.db
          .select({
            name: schema.users.name,
            firstName: schema.users.firstName,
            lastName: schema.users.lastName,
          })
          .from(schema.users)
          .where(and(eq(schema.users.id, current.decidedBy), eq(schema.users.companyId, ctx.user.companyId)))
          .get(),
      )
    : undefined;
  const name = who ? who.name || [who.firstName, who.lastName].filter(Boolean).join(' ') : '';
  return conflict(
    `This schedule change was already ${current.status} by ${name || 'someone else'}`,
    'ALREADY_DECIDED',
  );
}

/**
 * SPEC W13, for pushed patches: a decided request refuses any change before the per-field decision runs,
 * so a decision made offline earlier than the one that won is told who decided instead of losing quietly.
 */
export function* assertPending(ctx: MutationContext, row: Record<string, unknown>): Op<void> {
  const current = yield* findVisibleScheduleChange(ctx, ctx.user, String(row.id));
  if (current.status !== 'pending') throw yield* alreadyDecided(ctx, current);
}

/** What an approver decides on: a change of any of these after the approver saw the request matters. */
const TERMS = ['originalDate', 'newDate', 'reason'] as const;

/**
 * SPEC W19, for pushed decisions: a decision is about the request as the deciding device last saw it (the
 * mutation's base version). When another device changed the request's terms after that (the requester
 * moved the new date while the manager approved offline), the decision is refused and the approver told
 * what it is now, instead of approving a date nobody saw.
 */
export function* assertDecidedAsSeen(
  ctx: MutationContext,
  row: Record<string, unknown>,
  meta: Record<string, [number, number, string]>,
  m: { data: Record<string, unknown>; baseVersion: number | null },
): Op<void> {
  yield* assertPending(ctx, row);
  // A device that never had the row from the server (its own request) saw every change of it.
  if (m.data.status === undefined || m.baseVersion === null) return;
  const base = m.baseVersion;
  const changed = TERMS.filter((f) => {
    const stamp = meta[f];
    return stamp !== undefined && stamp[0] > base && stamp[2] !== ctx.clientId;
  });
  if (changed.length === 0) return;
  const now = row.newDate ? ` It now asks for ${day(String(row.newDate))}.` : '';
  throw conflict(
    `This schedule change request was edited after you saw it.${now} Look at it again before deciding.`,
    'REQUEST_CHANGED',
  );
}

/**
 * Either a decision (approvers only, pending requests only; approving moves the task's due date and the
 * requester is told) or an edit of reason and dates (the requester or an approver, while pending).
 */
export function* updateScheduleChange(
  ctx: MutationContext,
  id: string,
  input: unknown,
): Op<ScheduleChangeRow> {
  const { status, ...edit } = validate(ScheduleChangePatchSchema, input);
  const current = yield* findVisibleScheduleChange(ctx, ctx.user, id);
  const editFields = Object.keys(edit);
  if (status === undefined && editFields.length === 0) {
    throw badRequest('Send a decision (status) or the fields to change');
  }
  const isApprover = ctx.user.permissions.has(APPROVE_PERMISSION);
  if (status !== undefined && !isApprover) {
    throw forbidden('Only managers and admins can approve or reject schedule changes');
  }
  if (editFields.length && !isApprover && current.userId !== ctx.user.id) {
    throw forbidden('Only the requester can edit this schedule change');
  }
  if (current.status !== 'pending') throw yield* alreadyDecided(ctx, current);

  const task = yield* findVisibleTask(ctx, ctx.user, current.taskId);
  const set: Partial<ScheduleChanges['$inferInsert']> = { ...edit };
  const fields = [...editFields];
  if (status !== undefined) {
    Object.assign(set, { status, decidedBy: ctx.user.id, decidedAt: occurredIso(ctx) });
    fields.push('status', 'decidedBy', 'decidedAt');
  }
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.scheduleChanges.update(
    ctx.sql,
    id,
    ctx.user.companyId,
    { ...set, ...stampFields(ctx, version, fields, current.fieldMeta) },
    current,
  );
  if (!row) throw notFound('Schedule change');

  if (status === undefined) {
    yield* recordActivity(ctx, {
      actionType: 'schedule_change_updated',
      description: `Edited the schedule change request for ${task.title}`,
      entityType: 'schedule_change',
      entityId: id,
    });
    return row;
  }
  if (status === 'approved') yield* applyTaskPatch(ctx, task, { dueDate: row.newDate });
  yield* settleNotificationsAbout(ctx, 'schedule_change', id);
  if (row.userId && row.userId !== ctx.user.id) {
    yield* notify(ctx, {
      userId: row.userId,
      title: status === 'approved' ? 'Schedule change approved' : 'Schedule change rejected',
      message:
        status === 'approved'
          ? `Your request to move "${task.title}" to ${day(row.newDate)} was approved`
          : `Your request to move "${task.title}" to ${day(row.newDate)} was rejected`,
      type: status === 'approved' ? 'success' : 'error',
      relatedEntityType: 'schedule_change',
      relatedEntityId: id,
    });
  }
  yield* recordActivity(ctx, {
    actionType: status === 'approved' ? 'schedule_change_approved' : 'schedule_change_rejected',
    description: `${status === 'approved' ? 'Approved' : 'Rejected'} the schedule change for ${task.title}`,
    entityType: 'schedule_change',
    entityId: id,
  });
  return row;
}
