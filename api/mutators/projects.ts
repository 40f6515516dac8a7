import { and, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { budgetAlert, type ProjectMoney } from '#shared/rules/budget-alerts.ts';
import { ProjectCreateSchema, ProjectPatchSchema } from '#shared/schemas/project.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { conflict } from '../http.ts';
import {
  idTaken,
  findVisibleProject,
  nextVersion,
  notify,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  tombstone,
  usersWithPermission,
  validate,
  type MutationContext,
} from './core.ts';
import { statements } from './statements.ts';

const { tasks, projectLogs, photos, scheduleChanges } = schema;

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
 * Deletes (tombstones) a project with its tasks, logs, photos and their schedule changes in the caller's
 * transaction, as the delete dialog promises. Each tombstone gets its own version so pull sends it.
 */
export function* deleteProject(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'projects:delete');
  const project = yield* findVisibleProject(ctx, ctx.user, id);
  const taskIds = (yield* io(
    ctx.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.projectId, id), eq(tasks.companyId, ctx.user.companyId), isNull(tasks.deletedAt)))
      .all(),
  )).map((r) => r.id);
  const changeIds = taskIds.length
    ? (yield* io(
        ctx.db
          .select({ id: scheduleChanges.id })
          .from(scheduleChanges)
          .where(and(inArray(scheduleChanges.taskId, taskIds), isNull(scheduleChanges.deletedAt)))
          .all(),
      )).map((r) => r.id)
    : [];
  const logIds = (yield* io(
    ctx.db
      .select({ id: projectLogs.id })
      .from(projectLogs)
      .where(and(eq(projectLogs.projectId, id), isNull(projectLogs.deletedAt)))
      .all(),
  )).map((r) => r.id);
  const photoIds = (yield* io(
    ctx.db
      .select({ id: photos.id })
      .from(photos)
      .where(and(eq(photos.projectId, id), isNull(photos.deletedAt)))
      .all(),
  )).map((r) => r.id);
  yield* tombstone(ctx, 'schedule_changes', changeIds);
  yield* tombstone(ctx, 'tasks', taskIds);
  yield* tombstone(ctx, 'project_logs', logIds);
  yield* tombstone(ctx, 'photos', photoIds);
  yield* tombstone(ctx, 'projects', [id]);
  yield* recordActivity(ctx, {
    actionType: 'project_deleted',
    description: `Deleted project ${project.name}`,
    entityType: 'project',
    entityId: id,
    metadata: {
      tasks: taskIds.length,
      logs: logIds.length,
      photos: photoIds.length,
      scheduleChanges: changeIds.length,
    },
  });
  return {
    id,
    deleted: {
      tasks: taskIds.length,
      logs: logIds.length,
      photos: photoIds.length,
      scheduleChanges: changeIds.length,
    },
  };
}
