import { z } from 'zod';
import type { PulledTable } from '../sync-protocol.ts';

/**
 * The rows pull sends (sync/SPEC.md L3, L12): `data` of a live change, camelCase, without `fieldMeta` and
 * `deletedAt`. The one definition of a mirrored row for the device (`sync/db.ts`) and the screens; the
 * server's pull test parses every row it sends with these, so a column added on one side only fails there.
 * Values are as stored (ISO-8601 UTC strings for times, integer cents for money); value lists stay plain
 * strings here because a device must keep a row whose value a newer server introduced.
 */

const Sync = {
  id: z.string(),
  version: z.number().int(),
  companyId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
};

export const ProjectWireSchema = z.strictObject({
  ...Sync,
  name: z.string(),
  description: z.string().nullable(),
  location: z.string(),
  status: z.string(),
  progress: z.number().int(),
  dueDate: z.string().nullable(),
  /** Both null for a reader who may not read finance (api/db/scope.ts FINANCE_COLUMNS). */
  budget: z.number().int().nullable(),
  actualCost: z.number().int().nullable(),
  clientName: z.string().nullable(),
  clientEmail: z.string().nullable(),
  clientPhone: z.string().nullable(),
});

export const TaskWireSchema = z.strictObject({
  ...Sync,
  title: z.string(),
  description: z.string().nullable(),
  projectId: z.string().nullable(),
  assigneeId: z.string().nullable(),
  category: z.string(),
  status: z.string(),
  priority: z.string(),
  dueDate: z.string().nullable(),
  completedAt: z.string().nullable(),
  isMilestone: z.boolean(),
  estimatedHours: z.number().nullable(),
});

export const ProjectLogWireSchema = z.strictObject({
  ...Sync,
  projectId: z.string(),
  userId: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  type: z.string(),
  status: z.string(),
  images: z.array(z.string()),
});

export const PhotoWireSchema = z.strictObject({
  ...Sync,
  projectId: z.string(),
  userId: z.string().nullable(),
  filename: z.string(),
  originalName: z.string().nullable(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  sha256: z.string().nullable(),
  mimeType: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  blobStatus: z.string(),
  capturedAt: z.string().nullable(),
});

export const ScheduleChangeWireSchema = z.strictObject({
  ...Sync,
  taskId: z.string(),
  userId: z.string().nullable(),
  reason: z.string(),
  originalDate: z.string().nullable(),
  newDate: z.string(),
  status: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});

/** A message, dispute or invoice note on a project (SPEC W15). */
export const CommunicationWireSchema = z.strictObject({
  ...Sync,
  projectId: z.string(),
  fromUserId: z.string().nullable(),
  fromEmail: z.string().nullable(),
  fromName: z.string().nullable(),
  toUserId: z.string().nullable(),
  toEmail: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  type: z.string(),
  status: z.string(),
  attachments: z.array(z.string()),
  priority: z.string(),
});

/** A change-order request and its decision (SPEC W15, W16); money in integer cents. */
export const ChangeOrderWireSchema = z.strictObject({
  ...Sync,
  projectId: z.string(),
  requestedBy: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  costImpact: z.number().int(),
  timeImpact: z.number().int(),
  status: z.string(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  reason: z.string().nullable(),
  attachments: z.array(z.string()),
});

/** A person of the company (SPEC L12): no password, ever; `email` null for a colleague of crew. */
export const UserWireSchema = z.strictObject({
  id: z.string(),
  version: z.number().int(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** The role kind (admin, manager, crew, subcontractor, root). */
  role: z.string(),
  isActive: z.boolean(),
  profileImageUrl: z.string().nullable(),
});

export const SubcontractorAssignmentWireSchema = z.strictObject({
  id: z.string(),
  version: z.number().int(),
  subcontractorId: z.string(),
  projectId: z.string(),
  companyId: z.string(),
  assignedBy: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  specialization: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
});

/** The row schema of each pulled table, by its wire name. */
export const WIRE_ROW_SCHEMAS = {
  projects: ProjectWireSchema,
  tasks: TaskWireSchema,
  project_logs: ProjectLogWireSchema,
  photos: PhotoWireSchema,
  schedule_changes: ScheduleChangeWireSchema,
  communications: CommunicationWireSchema,
  change_orders: ChangeOrderWireSchema,
  users: UserWireSchema,
  subcontractor_assignments: SubcontractorAssignmentWireSchema,
} as const satisfies Record<PulledTable, z.ZodType>;

export type ProjectWire = z.infer<typeof ProjectWireSchema>;
export type TaskWire = z.infer<typeof TaskWireSchema>;
export type ProjectLogWire = z.infer<typeof ProjectLogWireSchema>;
export type PhotoWire = z.infer<typeof PhotoWireSchema>;
export type ScheduleChangeWire = z.infer<typeof ScheduleChangeWireSchema>;
export type CommunicationWire = z.infer<typeof CommunicationWireSchema>;
export type ChangeOrderWire = z.infer<typeof ChangeOrderWireSchema>;
export type UserWire = z.infer<typeof UserWireSchema>;
export type SubcontractorAssignmentWire = z.infer<typeof SubcontractorAssignmentWireSchema>;
