import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, isoNow, syncColumns } from './columns.ts';
import { companies, users } from './identity.ts';
import { projects, tasks } from './field.ts';

const companyId = () =>
  text('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });
const updatedAt = () => text('updated_at').notNull().$defaultFn(isoNow);

export const userActivities = sqliteTable(
  'user_activities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: companyId(),
    actionType: text('action_type').notNull(),
    description: text('description').notNull(),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('user_activities_company_created_idx').on(t.companyId, t.createdAt)],
);

export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    type: text('type').notNull().default('info'),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    relatedEntityType: text('related_entity_type'),
    relatedEntityId: text('related_entity_id'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt)],
);

export const subcontractorAssignments = sqliteTable(
  'subcontractor_assignments',
  {
    id: text('id').primaryKey(),
    subcontractorId: text('subcontractor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    assignedBy: text('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    startDate: text('start_date'),
    endDate: text('end_date'),
    specialization: text('specialization'),
    status: text('status').notNull().default('active'),
    /** Sync version of the read-only mirror (sync/SPEC.md L12), stamped by triggers like `users.version`. */
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('subcontractor_assignments_sub_idx').on(t.subcontractorId),
    index('subcontractor_assignments_version_idx').on(t.companyId, t.version),
  ],
);

export const projectHealthMetrics = sqliteTable(
  'project_health_metrics',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    overallHealthScore: integer('overall_health_score').notNull().default(0),
    scheduleHealth: integer('schedule_health').notNull().default(0),
    budgetHealth: integer('budget_health').notNull().default(0),
    qualityHealth: integer('quality_health').notNull().default(0),
    resourceHealth: integer('resource_health').notNull().default(0),
    riskLevel: text('risk_level').notNull().default('low'),
    calculatedAt: text('calculated_at').notNull().$defaultFn(isoNow),
  },
  (t) => [index('project_health_metrics_project_idx').on(t.projectId, t.calculatedAt)],
);

export const riskAssessments = sqliteTable(
  'risk_assessments',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    riskType: text('risk_type').notNull().default('schedule'),
    riskTitle: text('risk_title').notNull(),
    riskDescription: text('risk_description'),
    probability: text('probability').notNull().default('medium'),
    impact: text('impact').notNull().default('medium'),
    riskScore: integer('risk_score').notNull().default(0),
    status: text('status').notNull().default('identified'),
    mitigationPlan: text('mitigation_plan'),
    assignedTo: text('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    identifiedBy: text('identified_by').references(() => users.id, { onDelete: 'set null' }),
    dueDate: text('due_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('risk_assessments_project_idx').on(t.projectId)],
);

export const healthCheckTemplates = sqliteTable('health_check_templates', {
  id: text('id').primaryKey(),
  companyId: companyId(),
  name: text('name').notNull(),
  description: text('description'),
  criteria: text('criteria', { mode: 'json' }).$type<unknown>(),
  isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
  createdAt: createdAt(),
});

export const communications = sqliteTable(
  'communications',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    fromUserId: text('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    fromEmail: text('from_email'),
    fromName: text('from_name'),
    toUserId: text('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    toEmail: text('to_email'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    type: text('type').notNull().default('message'),
    status: text('status').notNull().default('open'),
    attachments: text('attachments', { mode: 'json' }).$type<string[]>().notNull().default([]),
    priority: text('priority').notNull().default('normal'),
    createdAt: createdAt(),
    // Mirrored since migration 0005 (sync/SPEC.md W15): raised on site, offline.
    ...syncColumns(),
  },
  (t) => [
    index('communications_company_idx').on(t.companyId, t.createdAt),
    index('communications_company_version_idx').on(t.companyId, t.version),
  ],
);

export const changeOrders = sqliteTable(
  'change_orders',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    costImpact: integer('cost_impact').notNull().default(0),
    timeImpact: integer('time_impact').notNull().default(0),
    status: text('status').notNull().default('pending'),
    approvedBy: text('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: text('approved_at'),
    reason: text('reason'),
    attachments: text('attachments', { mode: 'json' }).$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    // Mirrored since migration 0005 (sync/SPEC.md W15): requested and decided offline.
    ...syncColumns(),
  },
  (t) => [
    index('change_orders_company_idx').on(t.companyId, t.createdAt),
    index('change_orders_company_version_idx').on(t.companyId, t.version),
  ],
);

export const timeEntries = sqliteTable(
  'time_entries',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    taskId: text('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    description: text('description'),
    startTime: text('start_time').notNull(),
    endTime: text('end_time'),
    totalHours: real('total_hours'),
    /** cents per hour */
    hourlyRate: integer('hourly_rate'),
    billable: integer('billable', { mode: 'boolean' }).notNull().default(true),
    approved: integer('approved', { mode: 'boolean' }).notNull().default(false),
    approvedBy: text('approved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('time_entries_company_idx').on(t.companyId)],
);

export const invoices = sqliteTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** Unique per company: two companies may both have invoice INV-0001. */
    invoiceNumber: text('invoice_number').notNull(),
    clientName: text('client_name'),
    clientEmail: text('client_email'),
    amount: integer('amount').notNull().default(0),
    tax: integer('tax').notNull().default(0),
    total: integer('total').notNull().default(0),
    status: text('status').notNull().default('draft'),
    dueDate: text('due_date'),
    paidAt: text('paid_at'),
    items: text('items', { mode: 'json' }).$type<
      { description: string; quantity: number; unitPrice: number }[]
    >(),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('invoices_company_idx').on(t.companyId),
    uniqueIndex('invoices_company_number_idx').on(t.companyId, t.invoiceNumber),
  ],
);

/**
 * Objects uploaded through the presigned flow (spec 02 section 7), recorded when the bytes land. Until a
 * photo row or a log names the key, only its uploader may read the object back; once one does, that row's
 * visibility decides (DESIGN.md section 6). The mutators check a log's image keys against this table, so
 * REST and sync push apply the same ownership rule.
 */
export const objectUploads = sqliteTable(
  'object_uploads',
  {
    key: text('key').primaryKey(),
    companyId: companyId(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('object_uploads_company_idx').on(t.companyId)],
);
