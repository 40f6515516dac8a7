import { and, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { budgetAlert, type ProjectMoney } from '#shared/rules/budget-alerts.ts';
import { ProjectCreateSchema, ProjectPatchSchema } from '#shared/schemas/project.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { conflict } from '../http.ts';
import {
  idTaken,
  deleteScheduleChanges,
  findVisibleProject,
  nextVersion,
  notify,
  occurredIso,
  recordActivity,
  requirePermission,
  settleNotificationsAbout,
  stampFields,
  tombstone,
  usersWithPermission,
  validate,
  type MutationContext,
} from './core.ts';
import { statements } from './statements.ts';

const { tasks, projectLogs, photos, scheduleChanges, communications, changeOrders } = schema;

/** The ids of the live rows of a table that hangs off a project. */
function* liveIdsOn(
  ctx: MutationContext,
  table: typeof tasks | typeof projectLogs | typeof photos | typeof communications | typeof changeOrders,
  projectId: string,
): Op<string[]> {
  const rows = yield* io(
    ctx.db
      .select({ id: table.id })
      .from(table)
      .where(
        and(eq(table.projectId, projectId), eq(table.companyId, ctx.user.companyId), isNull(table.deletedAt)),
      )
      .all(),
  );
  return rows.map((r) => r.id);
}

/**
 * Tells the company's finance readers (active, holding finance:read; not the one who made the change) when
 * a change of a project's money crosses 90% or 100% of its budget (shared/rules/budget-alerts.ts).
 */
function* alertBudget(
  ctx: MutationContext,
  projectId: string,
  before: ProjectMoney | null,
  after: ProjectMoney,
): Op<void> {
  const alert = budgetAlert(before, after);
  if (!alert) return;
  const readers = (yield* usersWithPermission(ctx, 'finance:read')).filter((id) => id !== ctx.user.id);
  for (const userId of readers) {
    yield* notify(ctx, {
      userId,
      ...alert,
      relatedEntityType: 'project',
      relatedEntityId: projectId,
    });
  }
}

export function* createProject(ctx: MutationContext, input: unknown) {
  requirePermission(ctx, 'projects:create');
  const data = validate(ProjectCreateSchema, input);
  const id = data.id ?? newId();
  if (yield* idTaken(ctx, 'projects', id)) {
    throw conflict('A project with this id already exists');
  }
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.projects.insert(ctx.sql, {
    ...data,
    id,
    companyId: ctx.user.companyId,
    createdAt: occurredIso(ctx),
    ...stampFields(ctx, version, Object.keys(data)),
  });
  yield* recordActivity(ctx, {
    actionType: 'project_created',
    description: `Created project ${row.name}`,
    entityType: 'project',
    entityId: id,
  });
  yield* alertBudget(ctx, id, null, row);
  return row;
}

export function* updateProject(ctx: MutationContext, id: string, input: unknown) {
  requirePermission(ctx, 'projects:update');
  const patch = validate(ProjectPatchSchema, input);
  const current = yield* findVisibleProject(ctx, ctx.user, id);
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.projects.update(
    ctx.sql,
    id,
    ctx.user.companyId,
    { ...patch, ...stampFields(ctx, version, Object.keys(patch), current.fieldMeta) },
    current,
  );
  yield* recordActivity(ctx, {
    actionType: 'project_updated',
    description: `Updated project ${row?.name ?? current.name}`,
    entityType: 'project',
    entityId: id,
  });
  if (row && (patch.budget !== undefined || patch.actualCost !== undefined)) {
    yield* alertBudget(ctx, id, current, row);
  }
  return row ?? current;
}

/**
 * Deletes (tombstones) what hangs off a project: its tasks and their schedule changes, logs, photos,
 * communications and change orders, each tombstone with its own version so pull sends it, and settles the
 * notifications about those schedule changes and change orders. Only live rows are touched, so a second
 * call changes nothing.
 * The one rule for what goes with a project: `deleteProject` and the start-up repair both run it.
 */
export function* deleteProjectContents(ctx: MutationContext, id: string) {
  const taskIds = yield* liveIdsOn(ctx, tasks, id);
  const changeIds = taskIds.length
    ? (yield* io(
        ctx.db
          .select({ id: scheduleChanges.id })
          .from(scheduleChanges)
          .where(and(inArray(scheduleChanges.taskId, taskIds), isNull(scheduleChanges.deletedAt)))
          .all(),
      )).map((r) => r.id)
    : [];
  const logIds = yield* liveIdsOn(ctx, projectLogs, id);
  const photoIds = yield* liveIdsOn(ctx, photos, id);
  // Mirrored too (sync/SPEC.md W15): without their own tombstones every device kept them, with Approve and
  // Reject on requests the server no longer showed anyone.
  const communicationIds = yield* liveIdsOn(ctx, communications, id);
  const changeOrderIds = yield* liveIdsOn(ctx, changeOrders, id);
  yield* deleteScheduleChanges(ctx, changeIds);
  yield* tombstone(ctx, 'tasks', taskIds);
  yield* tombstone(ctx, 'project_logs', logIds);
  yield* tombstone(ctx, 'photos', photoIds);
  yield* tombstone(ctx, 'communications', communicationIds);
  yield* tombstone(ctx, 'change_orders', changeOrderIds);
  // Nobody is left to act on "Change order to review" about a request that went with its project.
  for (const orderId of changeOrderIds) yield* settleNotificationsAbout(ctx, 'change_order', orderId);
  return {
    tasks: taskIds.length,
    logs: logIds.length,
    photos: photoIds.length,
    scheduleChanges: changeIds.length,
    communications: communicationIds.length,
    changeOrders: changeOrderIds.length,
  };
}

/**
 * Deletes (tombstones) a project with everything on it (`deleteProjectContents`) in the caller's
 * transaction, as the delete dialog promises.
 */
export function* deleteProject(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'projects:delete');
  const project = yield* findVisibleProject(ctx, ctx.user, id);
  const deleted = yield* deleteProjectContents(ctx, id);
  yield* tombstone(ctx, 'projects', [id]);
  yield* recordActivity(ctx, {
    actionType: 'project_deleted',
    description: `Deleted project ${project.name}`,
    entityType: 'project',
    entityId: id,
    metadata: deleted,
  });
  return { id, deleted };
}
