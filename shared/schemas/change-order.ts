import { z } from 'zod';
import { CHANGE_ORDER_STATUSES } from '../enums.ts';
import { Id, OptionalText, RequiredText, SignedCents } from './common.ts';

/** The longest time impact we accept, in days (ten years). */
export const MAX_TIME_IMPACT_DAYS = 3650;

/**
 * POST /api/change-orders (spec 01 sections 5 and 7). Title, description and project are required; cost
 * impact is whole cents (the form parses the dollars typed with `shared/rules/money.ts`), time impact whole days, both 0 by
 * default. A cost impact below 0 is a credit (a deductive change order, as Procore has them); time
 * impact is never negative. The requester is the session user; the status starts pending.
 */
export const ChangeOrderCreateSchema = z.strictObject({
  id: Id.optional(),
  projectId: Id,
  title: RequiredText('Title', 200),
  description: RequiredText('Description', 5000),
  costImpact: SignedCents.default(0),
  timeImpact: z
    .number()
    .int('must be a whole number of days')
    .min(0, 'must not be negative')
    .max(MAX_TIME_IMPACT_DAYS, `must be at most ${MAX_TIME_IMPACT_DAYS} days`)
    .default(0),
});

/** The decisions an approver may take on a pending change order. */
export const CHANGE_ORDER_DECISIONS = ['approved', 'rejected', 'resolved'] as const;

/** The reason stored when a change order is rejected without one (spec 01 section 4). */
export const DEFAULT_REJECTION_REASON = 'Rejected by project manager';

/** PATCH /api/change-orders/{id}: approve, reject or resolve a pending change order, with an optional reason. */
export const ChangeOrderDecisionSchema = z.strictObject({
  status: z.enum(CHANGE_ORDER_DECISIONS, {
    message: `Status must be one of ${CHANGE_ORDER_DECISIONS.join(', ')}`,
  }),
  reason: OptionalText(2000),
});

/** GET /api/change-orders?projectId=&status= */
export const ChangeOrderListQuerySchema = z.object({
  projectId: Id.optional(),
  status: z.enum(CHANGE_ORDER_STATUSES).optional(),
});

export type ChangeOrderCreate = z.infer<typeof ChangeOrderCreateSchema>;
export type ChangeOrderDecision = z.infer<typeof ChangeOrderDecisionSchema>;
export type ChangeOrderListQuery = z.infer<typeof ChangeOrderListQuerySchema>;
