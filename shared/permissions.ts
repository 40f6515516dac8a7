import type { RoleKind } from './enums.ts';

/**
 * Fine-grained permissions (resource_type x action), DESIGN.md section 6. The `<area>:view` permissions
 * decide the ten sidebar flags; the others guard data. The admin screens edit role -> permission lists
 * built from this catalogue.
 */
export const PERMISSIONS = [
  // sidebar areas
  { key: 'dashboard:view', category: 'Navigation', description: 'See the dashboard' },
  { key: 'projects:view', category: 'Navigation', description: 'See the Projects screen' },
  { key: 'tasks:view', category: 'Navigation', description: 'See the Task Management screen' },
  { key: 'project_health:view', category: 'Navigation', description: 'See the Project Health screen' },
  { key: 'schedule:view', category: 'Navigation', description: 'See the Schedule screen' },
  { key: 'photos:view', category: 'Navigation', description: 'See the Photo Gallery' },
  { key: 'logs:view', category: 'Navigation', description: 'See the Project Logs screen' },
  { key: 'crew:view', category: 'Navigation', description: 'See the Crew Dashboard' },
  { key: 'subs:view', category: 'Navigation', description: 'See the Subcontractors board' },
  { key: 'rbac:view', category: 'Navigation', description: 'See RBAC administration' },
  // data
  { key: 'projects:read', category: 'Projects', description: 'Read projects' },
  { key: 'projects:create', category: 'Projects', description: 'Create projects' },
  { key: 'projects:update', category: 'Projects', description: 'Edit projects' },
  { key: 'projects:delete', category: 'Projects', description: 'Delete projects and their data' },
  { key: 'tasks:read', category: 'Tasks', description: 'Read tasks' },
  { key: 'tasks:create', category: 'Tasks', description: 'Create tasks' },
  { key: 'tasks:update', category: 'Tasks', description: 'Edit tasks' },
  { key: 'tasks:delete', category: 'Tasks', description: 'Delete tasks' },
  { key: 'schedule_changes:read', category: 'Schedule', description: 'Read schedule changes' },
  { key: 'schedule_changes:create', category: 'Schedule', description: 'Request schedule changes' },
  {
    key: 'schedule_changes:approve',
    category: 'Schedule',
    description: 'Approve or reject schedule changes',
  },
  { key: 'photos:read', category: 'Photos', description: 'See photos' },
  { key: 'photos:create', category: 'Photos', description: 'Upload photos' },
  { key: 'photos:delete', category: 'Photos', description: 'Delete photos' },
  { key: 'logs:read', category: 'Project logs', description: 'Read project logs' },
  { key: 'logs:create', category: 'Project logs', description: 'Write project logs' },
  { key: 'logs:update', category: 'Project logs', description: 'Edit project logs' },
  { key: 'logs:delete', category: 'Project logs', description: 'Delete project logs' },
  { key: 'users:read', category: 'People', description: 'Read the company directory' },
  { key: 'assignments:read', category: 'People', description: 'Read subcontractor assignments' },
  { key: 'assignments:manage', category: 'People', description: 'Assign subcontractors to projects' },
  { key: 'communications:read', category: 'Communications', description: 'Read communications' },
  { key: 'communications:create', category: 'Communications', description: 'Send communications' },
  { key: 'change_orders:read', category: 'Change orders', description: 'Read change orders' },
  { key: 'change_orders:create', category: 'Change orders', description: 'Request change orders' },
  { key: 'change_orders:approve', category: 'Change orders', description: 'Approve or reject change orders' },
  { key: 'finance:read', category: 'Finance', description: 'Read invoices, time entries and budgets' },
  { key: 'project_health:read', category: 'Project health', description: 'Read health metrics and risks' },
  { key: 'project_health:calculate', category: 'Project health', description: 'Recalculate health metrics' },
  { key: 'risks:create', category: 'Project health', description: 'Record risk assessments' },
  { key: 'rbac:manage', category: 'Administration', description: "Manage the company's users" },
  {
    key: 'platform:admin',
    category: 'Administration',
    description: 'Manage companies, roles and permissions',
  },
] as const;

export type PermissionKey = (typeof PERMISSIONS)[number]['key'];
export const PERMISSION_KEYS: readonly PermissionKey[] = PERMISSIONS.map((p) => p.key);

/**
 * The permission that makes its holder a platform administrator (companies, roles, every company's users).
 * Only a role of kind 'root' carries it: a custom role of another kind that listed it would give platform
 * power to anyone a company admin hands that role to, since a company admin may grant any role but a root
 * one (DESIGN.md section 6).
 */
export const PLATFORM_ADMIN = 'platform:admin' satisfies PermissionKey;

/** Whether a role of `kind` (a RoleKind, or users.role as stored) may hold the permission named `name`. */
export function kindMayHold(kind: string, name: string): boolean {
  return name !== PLATFORM_ADMIN || kind === 'root';
}

const ALL = PERMISSION_KEYS;
const notAdmin = (k: PermissionKey) => !k.startsWith('rbac:') && k !== 'platform:admin';

/**
 * Crew and subcontractors raise communications (any type) and change orders (which start pending) on the
 * projects they can see, and read those; approving change orders and finance stay with admins and managers.
 */
const FIELD_ISSUES: readonly PermissionKey[] = [
  'communications:read',
  'communications:create',
  'change_orders:read',
  'change_orders:create',
];

/** The five role templates, DESIGN.md section 6. */
export const ROLE_TEMPLATES: Record<
  RoleKind,
  { id: number; name: string; description: string; permissions: readonly PermissionKey[] }
> = {
  admin: {
    id: 1,
    name: 'Company Administrator',
    description: 'Everything in its company, including user administration',
    permissions: ALL.filter((k) => k !== 'platform:admin'),
  },
  manager: {
    id: 2,
    name: 'Project Manager',
    description: 'Everything but user administration',
    permissions: ALL.filter(notAdmin),
  },
  crew: {
    id: 3,
    name: 'Crew Member',
    description: 'Field work: tasks, schedule requests, photos, logs, communications and change requests',
    permissions: [
      'dashboard:view',
      'projects:view',
      'tasks:view',
      'schedule:view',
      'photos:view',
      'logs:view',
      'crew:view',
      'projects:read',
      'tasks:read',
      'tasks:create',
      'tasks:update',
      'schedule_changes:read',
      'schedule_changes:create',
      'photos:read',
      'photos:create',
      'logs:read',
      'logs:create',
      'logs:update',
      'users:read',
      // Issues are raised on site (DECISIONS.md): read and raise communications and change orders.
      ...FIELD_ISSUES,
    ],
  },
  subcontractor: {
    id: 4,
    name: 'Subcontractor',
    description: 'Tasks, photos, logs, communications and change requests of the projects it is assigned to',
    permissions: [
      'dashboard:view',
      'tasks:view',
      'photos:view',
      'logs:view',
      'subs:view',
      'projects:read',
      'tasks:read',
      'tasks:create',
      'tasks:update',
      'schedule_changes:read',
      'schedule_changes:create',
      'photos:read',
      'photos:create',
      'logs:read',
      'logs:create',
      'logs:update',
      'users:read',
      'assignments:read',
      ...FIELD_ISSUES,
    ],
  },
  root: {
    id: 5,
    name: 'Platform Administrator',
    description: 'Every company, every permission',
    permissions: ALL,
  },
};

export const PERMISSION_FLAGS = [
  'dashboard',
  'projects',
  'tasks',
  'projectHealth',
  'schedule',
  'photos',
  'logs',
  'crew',
  'subs',
  'rbacAdmin',
] as const;
export type PermissionFlags = Record<(typeof PERMISSION_FLAGS)[number], boolean>;

const FLAG_SOURCE: Record<keyof PermissionFlags, PermissionKey> = {
  dashboard: 'dashboard:view',
  projects: 'projects:view',
  tasks: 'tasks:view',
  projectHealth: 'project_health:view',
  schedule: 'schedule:view',
  photos: 'photos:view',
  logs: 'logs:view',
  crew: 'crew:view',
  subs: 'subs:view',
  rbacAdmin: 'rbac:view',
};

/** The session user's sidebar flags (spec 02 section 2) from its fine-grained permissions. */
export function permissionFlags(granted: ReadonlySet<string>): PermissionFlags {
  const flags = {} as PermissionFlags;
  for (const flag of PERMISSION_FLAGS) flags[flag] = granted.has(FLAG_SOURCE[flag]);
  return flags;
}

/** The ids of the five template roles (1-5) every company relies on: never deleted, their kind never changes. */
export const TEMPLATE_ROLE_IDS: ReadonlySet<number> = new Set(Object.values(ROLE_TEMPLATES).map((t) => t.id));
