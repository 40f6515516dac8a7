import { z } from 'zod';
import { PROJECT_STATUSES } from '../enums.ts';
import { Cents, Id, NullableIsoDate, OptionalText, RequiredText } from './common.ts';

const fields = {
  name: RequiredText('Name'),
  description: OptionalText(),
  location: RequiredText('Location'),
  status: z.enum(PROJECT_STATUSES),
  progress: z.number().int('must be a whole number').min(0, 'must be 0 to 100').max(100, 'must be 0 to 100'),
  dueDate: NullableIsoDate,
  budget: Cents.nullable(),
  actualCost: Cents,
  clientName: OptionalText(200),
  clientEmail: z.email().nullable().optional(),
  clientPhone: OptionalText(50),
};

/** POST /api/projects (spec 01 section 7): name and location required; status active, progress 0 by default. */
export const ProjectCreateSchema = z.strictObject({
  id: Id.optional(),
  ...fields,
  status: fields.status.default('active'),
  progress: fields.progress.default(0),
  dueDate: fields.dueDate.optional(),
  budget: fields.budget.optional(),
  actualCost: fields.actualCost.default(0),
});

/** PATCH /api/projects/{id}: any subset of the fields. */
export const ProjectPatchSchema = z.strictObject(fields).partial();

export type ProjectCreate = z.infer<typeof ProjectCreateSchema>;
export type ProjectPatch = z.infer<typeof ProjectPatchSchema>;
