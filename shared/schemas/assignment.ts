import { z } from 'zod';
import { Id, NullableIsoDate, OptionalText } from './common.ts';

/**
 * POST /api/subcontractor-assignments: a manager puts a subcontractor on a project (spec 02 section 3,
 * subcontractor_assignments). The server sets the company, who assigned it, the status (active) and the
 * creation time.
 */
export const SubcontractorAssignmentCreateSchema = z
  .strictObject({
    id: Id.optional(),
    subcontractorId: Id,
    projectId: Id,
    specialization: OptionalText(200),
    startDate: NullableIsoDate.optional(),
    endDate: NullableIsoDate.optional(),
  })
  // Both are ISO instants in UTC by now, so they compare as text.
  .refine((a) => !a.startDate || !a.endDate || a.endDate >= a.startDate, {
    message: 'End date must not be before the start date',
    path: ['endDate'],
  });

export type SubcontractorAssignmentCreate = z.infer<typeof SubcontractorAssignmentCreateSchema>;
