import { and, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { riskScore } from '#shared/rules/risk.ts';
import { RiskAssessmentCreateSchema } from '#shared/schemas/risk.ts';
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

const { riskAssessments, users } = schema;

export type RiskAssessmentRow = typeof riskAssessments.$inferSelect;

/**
 * Records a risk on a project the user may see (spec 02 sections 4, 5 and 7). The score is computed here
 * (impact weight x probability weight); identifiedBy is the session user; assignedTo must be a user of the
 * same company (404 otherwise).
 */
export function* createRiskAssessment(ctx: MutationContext, input: unknown): Op<RiskAssessmentRow> {
  requirePermission(ctx, 'risks:create');
  const data = validate(RiskAssessmentCreateSchema, input);
  const project = yield* findVisibleProject(ctx, ctx.user, data.projectId);
  if (data.assignedTo) {
    const assignee = yield* io(
      ctx.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, data.assignedTo), eq(users.companyId, ctx.user.companyId)))
        .get(),
    );
    if (!assignee) throw notFound('User');
  }
  const id = data.id ?? newId();
  if (
    yield* io(
      ctx.db.select({ id: riskAssessments.id }).from(riskAssessments).where(eq(riskAssessments.id, id)).get(),
    )
  ) {
    throw conflict('A risk assessment with this id already exists');
  }
  const at = nowIso(ctx);
  const row = yield* io(
    ctx.db
      .insert(riskAssessments)
      .values({
        ...data,
        id,
        companyId: ctx.user.companyId,
        riskScore: riskScore(data.impact, data.probability),
        identifiedBy: ctx.user.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning()
      .get(),
  );
  yield* recordActivity(ctx, {
    actionType: 'risk_identified',
    description: `Identified ${row.riskType} risk "${row.riskTitle}" on ${project.name}`,
    entityType: 'risk_assessment',
    entityId: id,
    metadata: { projectId: project.id, riskScore: row.riskScore },
  });
  return row;
}
