import type { RoleKind } from '#shared/enums.ts';

/** The shape of the demo tenants' data (summit.ts, harbor.ts); days count from today. */

export interface PersonSpec {
  email: string;
  firstName: string;
  lastName: string;
  kind: RoleKind;
  trade?: string;
}

export type Pool = 'building' | 'renovation' | 'civil';
export type ProjectStatus = 'active' | 'completed' | 'delayed' | 'on-hold';
export type TaskStatus = 'pending' | 'in-progress' | 'completed' | 'blocked';
export type Priority = 'low' | 'medium' | 'high' | 'critical';
export type Level3 = 'low' | 'medium' | 'high';

export interface ProjectSpec {
  key: string;
  name: string;
  description: string;
  location: string;
  status: ProjectStatus;
  progress: number;
  startDays: number;
  dueDays: number;
  /** whole dollars; stored as cents */
  budget: number;
  actual: number;
  client: { name: string; email: string; phone: string };
  pool: Pool;
  tasks: number;
  photos: number;
}

export interface FixedTask {
  title: string;
  description?: string;
  category: 'administrative' | 'general' | 'subcontractor';
  project?: string;
  who: string | null;
  /** days from today; null = no due date */
  due: number | null;
  status: TaskStatus;
  priority: Priority;
  milestone?: boolean;
  hours?: number;
}

export interface InvoiceSpec {
  project: string;
  status: 'draft' | 'sent' | 'paid';
  due: number;
  labor: number;
  materials: number;
}

export interface ChangeOrderSpec {
  project: string;
  by: string;
  title: string;
  description: string;
  cost: number;
  days: number;
  status: 'pending' | 'approved' | 'rejected';
  ago: number;
}

export interface CommunicationSpec {
  project: string;
  /** a user's email, or 'client' for the project's client */
  from: string;
  to: string;
  subject: string;
  message: string;
  type: 'message' | 'dispute' | 'invoice';
  priority: 'urgent' | 'high' | 'normal' | 'low';
  status: 'open' | 'pending' | 'resolved';
  hoursAgo: number;
}

export interface RiskSpec {
  project: string;
  type: 'schedule' | 'budget' | 'quality' | 'resource' | 'weather' | 'safety';
  title: string;
  description: string;
  probability: Level3;
  impact: Level3;
  status: 'identified' | 'monitoring' | 'mitigated' | 'closed';
  mitigation: string;
  assignee: string;
  due: number;
}

export interface AssignmentSpec {
  sub: string;
  project: string;
  status: 'active' | 'completed';
}

export interface TenantSpec {
  name: string;
  domain: string;
  prefix: string;
  tier: 'professional' | 'basic';
  address: string;
  phone: string;
  email: string;
  website: string;
  /** sales tax on materials, for invoices */
  taxRate: number;
  /** 7 am local, in UTC hours */
  workdayStartUtc: number;
  people: readonly PersonSpec[];
  projects: readonly ProjectSpec[];
  fixedTasks: readonly FixedTask[];
  assignments: readonly AssignmentSpec[];
  logsPerProject: number;
  scheduleChanges: readonly { reason: string; status: 'pending' | 'approved' | 'rejected' }[];
  invoices: readonly InvoiceSpec[];
  changeOrders: readonly ChangeOrderSpec[];
  communications: readonly CommunicationSpec[];
  risks: readonly RiskSpec[];
  timeEntries: number;
}
