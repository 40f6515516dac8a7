import type { RISK_LEVELS3, RISK_STATUSES, RISK_TYPES } from '#shared/enums.ts';
import { RiskAssessmentCreateSchema } from '#shared/schemas/risk.ts';
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

/** The form's own words for the two required fields; the shared schema decides everything else. */
const REQUIRED: Partial<Record<RiskField, string>> = {
  projectId: 'Please select a project',
  riskTitle: 'Risk title is required',
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
  const errors: Partial<Record<RiskField, string>> = {};
  if (!values.projectId) errors.projectId = REQUIRED.projectId;
  const parsed = RiskAssessmentCreateSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as RiskField | undefined;
      if (field && !errors[field]) errors[field] = REQUIRED[field] ?? issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, data: { ...body, riskTitle: values.riskTitle.trim() } };
}

export const riskFormSchema = formSchema(validateRiskForm);
