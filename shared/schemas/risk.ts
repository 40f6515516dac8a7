import { z } from 'zod';
import { RISK_LEVELS3, RISK_STATUSES, RISK_TYPES } from '../enums.ts';
import { Id, NullableIsoDate, OptionalText, RequiredText } from './common.ts';

/**
 * POST /api/risk-assessments (spec 02 sections 4, 5 and 7). The title and project are required; type
 * defaults to schedule, probability and impact to medium, status to identified; dueDate is ISO or null.
 * The score (impact weight x probability weight) is computed by the server, and identifiedBy is the
 * session user.
 */
export const RiskAssessmentCreateSchema = z.strictObject({
  id: Id.optional(),
  projectId: Id,
  riskType: z.enum(RISK_TYPES).default('schedule'),
  riskTitle: RequiredText('Risk title', 200),
  riskDescription: OptionalText(5000),
  probability: z.enum(RISK_LEVELS3).default('medium'),
  impact: z.enum(RISK_LEVELS3).default('medium'),
  status: z.enum(RISK_STATUSES).default('identified'),
  mitigationPlan: OptionalText(5000),
  assignedTo: Id.nullable().optional(),
  dueDate: NullableIsoDate.optional(),
});

/** GET /api/risk-assessments?projectId= */
export const RiskAssessmentListQuerySchema = z.object({
  projectId: Id.optional(),
});

export type RiskAssessmentCreate = z.infer<typeof RiskAssessmentCreateSchema>;
export type RiskAssessmentListQuery = z.infer<typeof RiskAssessmentListQuerySchema>;
