import type { PermissionKey } from '#shared/permissions.ts';

/**
 * The one declarative table of every route and what it needs (DESIGN.md section 6). The permission
 * middleware looks each request up here; a route missing from it answers 404 and fails the route-table
 * test. `public`: anyone; `user`: any signed-in user; otherwise the user's role must grant one of the keys.
 * Row-level rules (own company, assigned projects, own notifications) are the handlers' job.
 */
export type RouteRule = 'public' | 'user' | PermissionKey | readonly PermissionKey[];

export const ROUTE_PERMISSIONS = {
  // session
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/user': 'user',
  'POST /api/auth/change-password': 'user',
  // dashboard
  'GET /api/dashboard/stats': 'dashboard:view',
  'GET /api/activities': 'dashboard:view',
  // field data
  'GET /api/projects': 'projects:read',
  'POST /api/projects': 'projects:create',
  'PATCH /api/projects/:id': 'projects:update',
  'DELETE /api/projects/:id': 'projects:delete',
  'GET /api/tasks': 'tasks:read',
  'POST /api/tasks': 'tasks:create',
  'PATCH /api/tasks/:id': 'tasks:update',
  'DELETE /api/tasks/:id': 'tasks:delete',
  'GET /api/schedule-changes': 'schedule_changes:read',
  'POST /api/schedule-changes': 'schedule_changes:create',
  'PATCH /api/schedule-changes/:id': ['schedule_changes:create', 'schedule_changes:approve'],
  'GET /api/logs': 'logs:read',
  'POST /api/logs': 'logs:create',
  'PATCH /api/logs/:id': 'logs:update',
  'DELETE /api/logs/:id': 'logs:delete',
  'GET /api/photos': 'photos:read',
  'POST /api/photos': 'photos:create',
  'GET /api/photos/:id': 'photos:read',
  'GET /api/photos/:id/file': 'photos:read',
  'DELETE /api/photos/:id': 'photos:delete',
  'POST /api/objects/upload': 'photos:create',
  'PUT /api/objects/upload/:key': 'photos:create',
  'GET /api/objects/image/:key': 'photos:read',
  // offline sync (sync/SPEC.md): every field role syncs; row-level rules are the mutators' and pull's job
  'POST /api/sync/push': 'user',
  'GET /api/sync/pull': 'user',
  'PUT /api/sync/blobs/:sha256': 'photos:create',
  'GET /api/sync/events': 'user',
  'GET /api/sync/conflicts': 'user',
  // row visibility is checked by the handler (api/sync/history.ts assertRowVisible)
  'GET /api/sync/history': 'user',
  // people
  'GET /api/users/managers': 'users:read',
  'GET /api/users': 'users:read',
  'GET /api/subcontractor-assignments': 'assignments:read',
  'POST /api/subcontractor-assignments': 'assignments:manage',
  'DELETE /api/subcontractor-assignments/:id': 'assignments:manage',
  'GET /api/notifications': 'user',
  'PATCH /api/notifications/mark-all-read': 'user',
  'PATCH /api/notifications/:id/read': 'user',
  // office
  'GET /api/communications': 'communications:read',
  'POST /api/communications': 'communications:create',
  'GET /api/change-orders': 'change_orders:read',
  'POST /api/change-orders': 'change_orders:create',
  'PATCH /api/change-orders/:id': 'change_orders:approve',
  'GET /api/invoices': 'finance:read',
  'GET /api/time-entries': 'finance:read',
  'GET /api/project-health-metrics': 'project_health:read',
  'POST /api/project-health-metrics/:projectId/calculate': 'project_health:calculate',
  'GET /api/risk-assessments': 'project_health:read',
  'POST /api/risk-assessments': 'risks:create',
  // administration
  'GET /api/rbac/permissions': 'rbac:manage',
  'GET /api/rbac/roles': 'rbac:manage',
  'POST /api/rbac/roles': 'platform:admin',
  'PATCH /api/rbac/roles/:id': 'platform:admin',
  'DELETE /api/rbac/roles/:id': 'platform:admin',
  'GET /api/rbac/users': 'rbac:manage',
  'POST /api/rbac/users': 'rbac:manage',
  'PATCH /api/rbac/users/:id': 'rbac:manage',
  'DELETE /api/rbac/users/:id': 'rbac:manage',
  'GET /api/rbac/companies/:id/users': 'rbac:manage',
  // A company admin may set its own company's time zone; the mutator keeps everything else root's.
  'PATCH /api/rbac/companies/:id': ['platform:admin', 'rbac:manage'],
  'GET /api/companies': 'rbac:manage',
  'POST /api/companies': 'platform:admin',
  'DELETE /api/companies/:id': 'platform:admin',
} as const satisfies Record<string, RouteRule>;

export type RouteKey = keyof typeof ROUTE_PERMISSIONS;

interface CompiledRoute {
  key: string;
  method: string;
  pattern: RegExp;
  rule: RouteRule;
}

function compile(key: string, rule: RouteRule): CompiledRoute {
  const [method = '', path = ''] = key.split(' ');
  const source = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { key, method, pattern: new RegExp(`^${source}/?$`), rule };
}

// Literal segments first, so '/api/notifications/mark-all-read' wins over '/api/notifications/:id/read'.
const COMPILED = Object.entries(ROUTE_PERMISSIONS)
  .map(([key, rule]) => compile(key, rule))
  .sort((a, b) => a.key.split(':').length - b.key.split(':').length);

/** The table entry for a request, or undefined when the route is not declared. */
export function findRouteRule(method: string, path: string): { key: string; rule: RouteRule } | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  const hit = COMPILED.find((r) => r.method === m && r.pattern.test(path));
  return hit && { key: hit.key, rule: hit.rule };
}

export function isAllowed(rule: RouteRule, granted: ReadonlySet<string>): boolean {
  if (rule === 'public' || rule === 'user') return true;
  const keys: readonly string[] = typeof rule === 'string' ? [rule] : rule;
  return keys.some((k) => granted.has(k));
}
