import { and, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { SubcontractorAssignmentCreateSchema } from '#shared/schemas/assignment.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { conflict, notFound } from '../http.ts';
import {
  findVisibleProject,
  nowIso,
  recordActivity,
  requirePermission,
  validate,
  type MutationContext,
} from './core.ts';

const { subcontractorAssignments: assignments, users } = schema;

export type SubcontractorAssignmentRow = typeof assignments.$inferSelect;

/**
 * Puts a subcontractor on a project (status active). The subcontractor must be an active user of the
 * caller's company whose role kind is subcontractor, and the project a live one of that company (404
 * otherwise, never revealing another company's rows); an active assignment of the same pair is a 409.
 * The row reaches devices through the read-only mirror (sync/SPEC.md L12): migration 0003's triggers
 * stamp its version, and the subcontractor's next pull sees a new scope (L9) and downloads the project.
 */
export function* createSubcontractorAssignment(
  ctx: MutationContext,
  input: unknown,
): Op<SubcontractorAssignmentRow> {
  requirePermission(ctx, 'assignments:manage');
  const data = validate(SubcontractorAssignmentCreateSchema, input);
  const project = yield* findVisibleProject(ctx, ctx.user, data.projectId);
  const sub = yield* io(
    ctx.db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.id, data.subcontractorId),
          eq(users.companyId, ctx.user.companyId),
          eq(users.role, 'subcontractor'),
          eq(users.isActive, true),
        ),
      )
      .get(),
  );
  if (!sub) throw notFound('Subcontractor');
  const existing = yield* io(
    ctx.db
      .select({ id: assignments.id })
      .from(assignments)
      .where(
        and(
          eq(assignments.subcontractorId, sub.id),
          eq(assignments.projectId, project.id),
          eq(assignments.status, 'active'),
        ),
      )
      .get(),
  );
  if (existing) throw conflict('This subcontractor is already assigned to this project', 'ALREADY_ASSIGNED');
  const id = data.id ?? newId();
  if (
    yield* io(ctx.db.select({ id: assignments.id }).from(assignments).where(eq(assignments.id, id)).get())
  ) {
    throw conflict('An assignment with this id already exists');
  }
  const row = yield* io(
    ctx.db
      .insert(assignments)
      .values({
        id,
        subcontractorId: sub.id,
        projectId: project.id,
        companyId: ctx.user.companyId,
        assignedBy: ctx.user.id,
        startDate: data.startDate ?? null,
        endDate: data.endDate ?? null,
        specialization: data.specialization ?? null,
        status: 'active',
        createdAt: nowIso(ctx),
      })
      .returning()
      .get(),
  );
  yield* recordActivity(ctx, {
    actionType: 'subcontractor_assigned',
    description: `Assigned ${sub.name || sub.email} to ${project.name}`,
    entityType: 'project',
    entityId: project.id,
    metadata: { subcontractorId: sub.id, assignmentId: id },
  });
  return row;
}

/**
 * Takes a subcontractor off a project: the assignment row is deleted (re-assigning makes a new one). The
 * deletion trigger of migration 0003 records a tombstone for the office's mirrors, and the subcontractor's
 * next pull sees a new scope (sync/SPEC.md L9) and drops the project's rows. 404 for another company's id.
 */
export function* removeSubcontractorAssignment(ctx: MutationContext, id: string): Op<{ id: string }> {
  requirePermission(ctx, 'assignments:manage');
  const row = yield* io(
    ctx.db
      .select()
      .from(assignments)
      .where(and(eq(assignments.id, id), eq(assignments.companyId, ctx.user.companyId)))
      .get(),
  );
  if (!row) throw notFound('Assignment');
  yield* io(ctx.db.delete(assignments).where(eq(assignments.id, row.id)).run());
  const sub = yield* io(
    ctx.db
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, row.subcontractorId))
      .get(),
  );
  const project = yield* io(
    ctx.db
      .select({ name: schema.projects.name })
      .from(schema.projects)
      .where(eq(schema.projects.id, row.projectId))
      .get(),
  );
  yield* recordActivity(ctx, {
    actionType: 'subcontractor_unassigned',
    description: `Removed ${sub?.name || sub?.email || 'a subcontractor'} from ${project?.name ?? 'a project'}`,
    entityType: 'project',
    entityId: row.projectId,
    metadata: { subcontractorId: row.subcontractorId, assignmentId: row.id },
  });
  return { id: row.id };
}
