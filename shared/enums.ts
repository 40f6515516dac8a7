/** Value lists of both specs (spec 01 section 4, spec 02 sections 4 and 9). */
export const PROJECT_STATUSES = ['active', 'completed', 'delayed', 'on-hold'] as const;
export const TASK_STATUSES = ['pending', 'in-progress', 'completed', 'blocked'] as const;
export const TASK_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export const TASK_CATEGORIES = ['project', 'administrative', 'general', 'subcontractor'] as const;
export const LOG_TYPES = ['general', 'issue', 'milestone', 'safety'] as const;
export const LOG_STATUSES = ['open', 'in-progress', 'resolved', 'closed'] as const;
export const SCHEDULE_CHANGE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const CHANGE_ORDER_STATUSES = ['pending', 'approved', 'rejected', 'resolved'] as const;
export const COMMUNICATION_TYPES = ['message', 'dispute', 'invoice'] as const;
export const COMMUNICATION_PRIORITIES = ['urgent', 'high', 'normal', 'low'] as const;
export const COMMUNICATION_STATUSES = ['open', 'pending', 'approved', 'rejected', 'resolved'] as const;
export const INVOICE_STATUSES = ['draft', 'sent', 'paid'] as const;
export const NOTIFICATION_TYPES = ['info', 'warning', 'success', 'error'] as const;
export const COMPANY_STATUSES = ['active', 'suspended', 'pending'] as const;
export const COMPANY_TYPES = ['platform', 'customer', 'partner'] as const;
export const SUBSCRIPTION_TIERS = ['basic', 'professional', 'enterprise'] as const;
export const RISK_TYPES = ['schedule', 'budget', 'quality', 'resource', 'weather', 'safety'] as const;
export const RISK_LEVELS3 = ['low', 'medium', 'high'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const RISK_STATUSES = ['identified', 'monitoring', 'mitigated', 'closed'] as const;
export const ASSIGNMENT_STATUSES = ['active', 'completed', 'inactive'] as const;

/** Role kinds: the five templates of DESIGN.md section 6. A custom role derives from one of them. */
export const ROLE_KINDS = ['root', 'admin', 'manager', 'crew', 'subcontractor'] as const;
export type RoleKind = (typeof ROLE_KINDS)[number];

export const MAX_PHOTO_BYTES = 10_485_760;
