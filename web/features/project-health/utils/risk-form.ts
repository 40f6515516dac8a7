import type { RISK_LEVELS3, RISK_STATUSES, RISK_TYPES } from '#shared/enums.ts';
import { RiskAssessmentCreateSchema } from '#shared/schemas/risk.ts';
import { fieldErrors, type FieldErrors } from '#web/lib/field-errors.ts';
import { formSchema, type Validated } from '#web/lib/form-patch.ts';
import type { RiskCreateBody } from '../hooks/use-health-data.ts';

/** The Add Risk form as typed: every field is the text of its control ('' for none). */
export interface RiskFormValues {
  projectId: string;
  riskType: (typeof RISK_TYPES)[number];
  riskTitle: string;
  riskDescription: string;
  probability: (typeof RISK_LEVELS3)[number];
  impact: (typeof RISK_LEVELS3)[number];
  status: (typeof RISK_STATUSES)[number];
  mitigationPlan: string;
  assignedTo: string;
  /** yyyy-mm-dd from the date input, or ''. */
  dueDate: string;
}

export type RiskField = keyof RiskFormValues;

/** Spec 02 section 5: type schedule, probability and impact medium, status identified. */
export function emptyRiskForm(projectId = ''): RiskFormValues {
  return {
    projectId,
    riskType: 'schedule',
    riskTitle: '',
    riskDescription: '',
    probability: 'medium',
    impact: 'medium',
    status: 'identified',
    mitigationPlan: '',
    assignedTo: '',
    dueDate: '',
  };
}

/** The fields' labels, which the shared schema's messages are worded after ('must be at most ...'). */
const LABELS: Record<RiskField, string> = {
  projectId: 'Project',
  riskType: 'Risk type',
  riskTitle: 'Risk title',
  riskDescription: 'Description',
  probability: 'Probability',
  impact: 'Impact',
  status: 'Status',
  mitigationPlan: 'Mitigation plan',
  assignedTo: 'Assigned to',
  dueDate: 'Due date',
};

/**
 * Checks the form with the server's schema (RiskAssessmentCreateSchema) so the two never disagree, and
 * turns it into the POST body: empty texts are left out, 'Unassigned' and no date are null.
 */
export function validateRiskForm(values: RiskFormValues): Validated<RiskCreateBody, RiskField> {
  const body: RiskCreateBody = {
    projectId: values.projectId,
    riskType: values.riskType,
    riskTitle: values.riskTitle,
    riskDescription: values.riskDescription.trim() || null,
    probability: values.probability,
    impact: values.impact,
    status: values.status,
    mitigationPlan: values.mitigationPlan.trim() || null,
    assignedTo: values.assignedTo || null,
    dueDate: values.dueDate || null,
  };
  const parsed = RiskAssessmentCreateSchema.safeParse(body);
  const errors: FieldErrors<RiskField> = parsed.success ? {} : fieldErrors(parsed.error, LABELS);
  // The form's own words for a missing project (spec 02 section 5); the schema's for everything else.
  if (!values.projectId) errors.projectId = 'Please select a project';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, data: { ...body, riskTitle: values.riskTitle.trim() } };
}

export const riskFormSchema = formSchema(validateRiskForm);
