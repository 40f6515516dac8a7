import { newId } from '#shared/ids.ts';
import {
  projectRequiredError,
  TaskCreateSchema,
  TaskPatchSchema,
  type TaskPatch,
} from '#shared/schemas/task.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import type { schema } from '../db/index.ts';
import { isScopedToAssignments, scopeParams, scopeWhere } from '../db/scope.ts';
import { badRequest, conflict, forbidden, notFound } from '../http.ts';
import {
  deleteScheduleChanges,
  idTaken,
  findVisibleProject,
  lookupVisible,
  nextVersion,
  notify,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  tombstone,
  validate,
  type MutationContext,
  type Visibility,
} from './core.ts';
import { statements } from './statements.ts';
import { io, type Op } from '../db/op.ts';
import { rowsStmt } from '../db/sql.ts';

type Tasks = typeof schema.tasks;

export type TaskRow = Tasks['$inferSelect'];
/** A task as the REST API returns it: the drizzle row without the sync bookkeeping (see `publicRow`). */
export type PublicTask = Omit<TaskRow, 'fieldMeta' | 'deletedAt'>;

/**
 * A live task the user may see, or 404 (also for another company's id: never reveal existence).
 */
export function* findVisibleTask(c: Visibility, user: SessionUser, id: string): Op<TaskRow> {
  const row = yield* lookupVisible(c, statements.task, user, id);
  if (!row) throw notFound('Task');
  return row;
}

// GET /api/tasks is the B1 benchmark route (DESIGN.md sections 11-12): the list is read with plain SQL
// statements (prepared once per connection on SQLite), the columns aliased to the keys and order of a drizzle
// row (without fieldMeta and deletedAt), so the answer is the same as `publicRow` of the query builder's rows.
const TASK_COLUMNS = `id, title, description, project_id AS "projectId", assignee_id AS "assigneeId",
  company_id AS "companyId", category, status, priority, due_date AS "dueDate", completed_at AS "completedAt",
  created_at AS "createdAt", is_milestone AS "isMilestone", estimated_hours AS "estimatedHours", version,
  updated_at AS "updatedAt", updated_by AS "updatedBy"`;

type RawTask = Omit<PublicTask, 'isMilestone'> & { isMilestone: number | boolean };

const taskList = (scoped: boolean) =>
  rowsStmt<RawTask>(
    `SELECT ${TASK_COLUMNS} FROM tasks WHERE ${scopeWhere('tasks', scoped, 'live')}
     ORDER BY created_at DESC, id DESC`,
  );
const TASK_LISTS = { company: taskList(false), assigned: taskList(true) };

const asPublicTasks = (rows: RawTask[]): PublicTask[] => {
  for (const row of rows) row.isMilestone = row.isMilestone === 1 || row.isMilestone === true;
  return rows as PublicTask[];
};

/** Every task the user may see, newest first. */
export function* listVisibleTasks(c: Conn, user: SessionUser): Op<PublicTask[]> {
  const stmt = isScopedToAssignments(user) ? TASK_LISTS.assigned : TASK_LISTS.company;
  return asPublicTasks(yield* io(c.sql.all(stmt, scopeParams(user))));
}

// A page of that list (GET /api/tasks?limit=N): the same statement with a keyset after the previous page's
// last row and a limit, prepared once per scope and cursor presence. The row value comparison is the
// keyset in one range of the company's (created_at, id) index, in both databases, so a page reads only its
// own rows, however deep it is; the query builder wrote it as an OR of two ranges, built and prepared again
// on every call.
const taskPage = (scoped: boolean, after: boolean) =>
  rowsStmt<RawTask>(
    `SELECT ${TASK_COLUMNS} FROM tasks WHERE ${scopeWhere('tasks', scoped, 'live')}
     ${after ? 'AND (created_at, id) < (@afterCreatedAt, @afterId)' : ''}
     ORDER BY created_at DESC, id DESC LIMIT @limit`,
  );
const TASK_PAGES = {
  company: { first: taskPage(false, false), after: taskPage(false, true) },
  assigned: { first: taskPage(true, false), after: taskPage(true, true) },
};

/**
 * At most `limit` tasks of `listVisibleTasks`, those after the row whose (createdAt, id) is `after` (the
 * previous page's last), or the first ones.
 */
export function* pageOfVisibleTasks(
  c: Conn,
  user: SessionUser,
  /** The previous page's last [createdAt, id] (`cursorValues` of the request), or undefined. */
  after: readonly unknown[] | undefined,
  limit: number,
): Op<PublicTask[]> {
  const pages = isScopedToAssignments(user) ? TASK_PAGES.assigned : TASK_PAGES.company;
  const params = { ...scopeParams(user), limit };
  const rows = after
    ? yield* io(c.sql.all(pages.after, { ...params, afterCreatedAt: after[0], afterId: after[1] }))
    : yield* io(c.sql.all(pages.first, params));
  return asPublicTasks(rows);
}

/** An assignee must be an active user of the caller's company (404 otherwise). */
function* checkAssignee(ctx: MutationContext, assigneeId: string): Op<void> {
  const active = yield* io(ctx.sql.get(statements.activeUser, [assigneeId, ctx.user.companyId]));
  if (!active) throw notFound('Assignee');
}

function checkProjectRule(task: { category: string; projectId?: string | null }): void {
  const message = projectRequiredError(task);
  if (message) throw badRequest(message, { projectId: message });
}

function* notifyAssignee(ctx: MutationContext, task: TaskRow, previousAssignee: string | null): Op<void> {
  const assignee = task.assigneeId;
  if (!assignee || assignee === previousAssignee || assignee === ctx.user.id) return;
  yield* notify(ctx, {
    userId: assignee,
    title: 'Task assigned',
    message: `You were assigned "${task.title}"`,
    type: 'info',
    relatedEntityType: 'task',
    relatedEntityId: task.id,
  });
}

/** completedAt follows the status: stamped when a task becomes completed, cleared for any other status. */
function completedAtFor(ctx: MutationContext, status: string, current?: TaskRow): string | null {
  if (status !== 'completed') return null;
  if (current?.status === 'completed' && current.completedAt) return current.completedAt;
  return occurredIso(ctx);
}

/**
 * A write of a user scoped to assignments (a subcontractor) may not take a task out of that user's sight:
 * a task moved off its projects, or made with no project and for someone else, vanished for the one who
 * wrote it, who could not undo it. Read back through the one scope rule (api/db/scope.ts) after the write;
 * the throw undoes the write (the REST transaction, or the mutation's savepoint in a push).
 */
function* keepInWritersSight(ctx: MutationContext, id: string): Op<void> {
  if (!isScopedToAssignments(ctx.user)) return;
  if (!(yield* lookupVisible(ctx, statements.task, ctx.user, id))) {
    throw forbidden('A task must stay on one of your projects or be assigned to you');
  }
}

export function* createTask(ctx: MutationContext, input: unknown): Op<TaskRow> {
  requirePermission(ctx, 'tasks:create');
  const data = validate(TaskCreateSchema, input);
  const id = data.id ?? newId();
  if (yield* idTaken(ctx, 'tasks', id)) {
    throw conflict('A task with this id already exists');
  }
  checkProjectRule(data);
  if (data.projectId) yield* findVisibleProject(ctx, ctx.user, data.projectId);
  if (data.assigneeId) yield* checkAssignee(ctx, data.assigneeId);
  const completedAt = completedAtFor(ctx, data.status);
  const fields = Object.keys(data).filter((k) => k !== 'id');
  if (completedAt) fields.push('completedAt');
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.tasks.insert(ctx.sql, {
    ...data,
    id,
    companyId: ctx.user.companyId,
    completedAt,
    createdAt: occurredIso(ctx),
    ...stampFields(ctx, version, fields),
  });
  yield* keepInWritersSight(ctx, id);
  yield* notifyAssignee(ctx, row, null);
  yield* recordActivity(ctx, {
    actionType: 'task_created',
    description: `Created task ${row.title}`,
    entityType: 'task',
    entityId: id,
  });
  return row;
}

/**
 * Writes a validated patch onto a task the caller may see, `current` as read in this transaction with
 * nothing written to it since (the updated row is built from it): a new version, field stamps, completedAt kept in
 * step with the status and a notification for a new assignee. No permission check and no activity: callers
 * (updateTask, a schedule-change approval) do those.
 */
export function* applyTaskPatch(ctx: MutationContext, current: TaskRow, patch: TaskPatch): Op<TaskRow> {
  const set: Partial<Tasks['$inferInsert']> = { ...patch };
  const fields: string[] = Object.keys(patch);
  if (patch.status !== undefined) {
    const completedAt = completedAtFor(ctx, patch.status, current);
    if (completedAt !== current.completedAt) {
      set.completedAt = completedAt;
      fields.push('completedAt');
    }
  }
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.tasks.update(
    ctx.sql,
    current.id,
    ctx.user.companyId,
    { ...set, ...stampFields(ctx, version, fields, current.fieldMeta) },
    current,
  );
  if (!row) throw notFound('Task');
  if (patch.assigneeId !== undefined) yield* notifyAssignee(ctx, row, current.assigneeId);
  return row;
}

export function* updateTask(ctx: MutationContext, id: string, input: unknown): Op<TaskRow> {
  requirePermission(ctx, 'tasks:update');
  const patch = validate(TaskPatchSchema, input);
  const current = yield* findVisibleTask(ctx, ctx.user, id);
  if (Object.keys(patch).length === 0) return current;
  if (patch.category !== undefined || patch.projectId !== undefined) {
    checkProjectRule({
      category: patch.category ?? current.category,
      projectId: patch.projectId !== undefined ? patch.projectId : current.projectId,
    });
  }
  if (patch.projectId && patch.projectId !== current.projectId)
    yield* findVisibleProject(ctx, ctx.user, patch.projectId);
  if (patch.assigneeId && patch.assigneeId !== current.assigneeId) {
    yield* checkAssignee(ctx, patch.assigneeId);
  }
  const row = yield* applyTaskPatch(ctx, current, patch);
  yield* keepInWritersSight(ctx, id);
  const completed = patch.status === 'completed' && current.status !== 'completed';
  yield* recordActivity(ctx, {
    actionType: completed ? 'task_completed' : 'task_updated',
    description: `${completed ? 'Completed' : 'Updated'} task ${row.title}`,
    entityType: 'task',
    entityId: id,
    metadata: { fields: Object.keys(patch) },
  });
  return row;
}

/** Tombstones a task and its schedule changes (settling their notifications) in the caller's transaction. */
export function* deleteTask(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'tasks:delete');
  const task = yield* findVisibleTask(ctx, ctx.user, id);
  const changeIds = yield* io(ctx.sql.all(statements.liveScheduleChangesOfTask, [id, ctx.user.companyId]));
  yield* deleteScheduleChanges(ctx, changeIds);
  yield* tombstone(ctx, 'tasks', [id]);
  yield* recordActivity(ctx, {
    actionType: 'task_deleted',
    description: `Deleted task ${task.title}`,
    entityType: 'task',
    entityId: id,
    metadata: { scheduleChanges: changeIds.length },
  });
  return { id, deleted: { scheduleChanges: changeIds.length } };
}
