import type { COMMUNICATION_PRIORITIES, COMMUNICATION_TYPES, CHANGE_ORDER_STATUSES } from '#shared/enums.ts';
import { ChangeOrderCreateSchema, MAX_TIME_IMPACT_DAYS } from '#shared/schemas/change-order.ts';
import { CommunicationCreateSchema } from '#shared/schemas/communication.ts';
import { parseDollars } from '#shared/rules/money.ts';
import { fieldErrors } from '#web/lib/field-errors.ts';
import { formSchema, type Validated } from '#web/lib/form-patch.ts';

export type CommunicationType = (typeof COMMUNICATION_TYPES)[number];
export type CommunicationPriority = (typeof COMMUNICATION_PRIORITIES)[number];
export type ChangeOrderStatus = (typeof CHANGE_ORDER_STATUSES)[number];

export const TYPE_LABELS: Record<CommunicationType, string> = {
  message: 'Message',
  dispute: 'Dispute',
  invoice: 'Invoice',
};

export const PRIORITY_LABELS: Record<CommunicationPriority, string> = {
  urgent: 'Urgent',
  high: 'High',
  normal: 'Normal',
  low: 'Low',
};

// ------------------------------------------------------------------------------- new communication

export interface CommunicationFormValues {
  subject: string;
  message: string;
  type: CommunicationType;
  priority: CommunicationPriority;
  projectId: string;
}
type CommunicationField = keyof CommunicationFormValues;

/** What a valid form writes: the fields of POST /api/communications (spec 01 section 7). */
export type CommunicationFields = CommunicationFormValues;

const COMMUNICATION_LABELS: Record<CommunicationField, string> = {
  subject: 'Subject',
  message: 'Message',
  type: 'Type',
  priority: 'Priority',
  projectId: 'Project',
};

/** Spec 01 section 5: type message and priority normal by default; the project preset when the feed has one. */
export function newCommunicationForm(projectId = ''): CommunicationFormValues {
  return { subject: '', message: '', type: 'message', priority: 'normal', projectId };
}

/**
 * Subject, message and project are required (spec 01 section 5). Validated with the server's own schema,
 * so the device refuses exactly what the server would.
 */
export function validateCommunicationForm(
  values: CommunicationFormValues,
): Validated<CommunicationFields, CommunicationField> {
  const parsed = CommunicationCreateSchema.safeParse({ ...values, projectId: values.projectId || undefined });
  const errors = parsed.success ? {} : fieldErrors(parsed.error, COMMUNICATION_LABELS);
  if (!values.projectId) errors.projectId = 'Project is required';
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const { subject, message, type, priority, projectId } = parsed.data;
  return { ok: true, data: { subject, message, type, priority, projectId } };
}

export const communicationFormSchema = formSchema(validateCommunicationForm);

// ------------------------------------------------------------------------------- new change order

export interface ChangeOrderFormValues {
  title: string;
  description: string;
  /** Dollars as typed ('1,234.56'); parsed to cents, never multiplied. */
  costImpact: string;
  /** Whole days as typed. */
  timeImpact: string;
  projectId: string;
}
type ChangeOrderField = keyof ChangeOrderFormValues;

/** What a valid form writes: the fields of POST /api/change-orders, money in cents. */
export interface ChangeOrderFields {
  title: string;
  description: string;
  costImpact: number;
  timeImpact: number;
  projectId: string;
}

const CHANGE_ORDER_LABELS: Record<ChangeOrderField, string> = {
  title: 'Title',
  description: 'Description',
  costImpact: 'Cost impact',
  timeImpact: 'Time impact',
  projectId: 'Project',
};

/** Spec 01 section 5: cost and time impact 0 by default. */
export function newChangeOrderForm(projectId = ''): ChangeOrderFormValues {
  return { title: '', description: '', costImpact: '', timeImpact: '', projectId };
}

/**
 * Title, description and project are required; the cost impact is dollars parsed to cents by
 * `shared/rules/money.ts`; the time impact a whole number of days (spec 01 section 5).
 */
export function validateChangeOrderForm(
  values: ChangeOrderFormValues,
): Validated<ChangeOrderFields, ChangeOrderField> {
  const errors: Partial<Record<ChangeOrderField, string>> = {};
  // A minus sign makes it a credit (a deductive change order).
  const cost = parseDollars(values.costImpact, 'Cost impact', { credit: true });
  if (!cost.ok) errors.costImpact = cost.message;
  const daysText = values.timeImpact.trim();
  let days = 0;
  if (daysText !== '') {
    if (!/^\d+$/.test(daysText)) errors.timeImpact = 'Time impact must be a whole number of days';
    else days = Number(daysText);
    if (days > MAX_TIME_IMPACT_DAYS)
      errors.timeImpact = `Time impact must be at most ${MAX_TIME_IMPACT_DAYS} days`;
  }
  const parsed = ChangeOrderCreateSchema.safeParse({
    title: values.title,
    description: values.description,
    projectId: values.projectId || undefined,
    costImpact: cost.ok ? cost.cents : 0,
    timeImpact: errors.timeImpact ? 0 : days,
  });
  if (!parsed.success) {
    for (const [field, message] of Object.entries(fieldErrors(parsed.error, CHANGE_ORDER_LABELS))) {
      errors[field as ChangeOrderField] ??= message;
    }
  }
  if (!values.projectId) errors.projectId = 'Project is required';
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const { title, description, costImpact, timeImpact, projectId } = parsed.data;
  return { ok: true, data: { title, description, costImpact, timeImpact, projectId } };
}

export const changeOrderFormSchema = formSchema(validateChangeOrderForm);
