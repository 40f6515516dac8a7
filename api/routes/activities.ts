import { Hono } from 'hono';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { Id, IsoDate } from '#shared/schemas/common.ts';
import type { AppEnv, SessionUser } from '../context.ts';
import { schema } from '../db/index.ts';
import { isScopedToAssignments, scopeSql, scopeWhere, type ScopedTable } from '../db/scope.ts';
import { parseWith } from '../http.ts';
import { sessionUser } from './helpers.ts';

const { userActivities, users } = schema;

export const ACTIVITY_PAGE_DEFAULT = 50;
export const ACTIVITY_PAGE_MAX = 200;

/**
 * `?limit=` (default 50, at most 200) and `?before=` (a created_at: only older activities) page through
 * the full list; `&beforeId=` (the id of the last row shown) breaks ties between rows of the same instant.
 */
const ActivityQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, `must be 1 to ${ACTIVITY_PAGE_MAX}`)
    .max(ACTIVITY_PAGE_MAX, `must be 1 to ${ACTIVITY_PAGE_MAX}`)
    .default(ACTIVITY_PAGE_DEFAULT),
  before: IsoDate.optional(),
  beforeId: Id.optional(),
});

/**
 * What an activity is about decides who may see it (DESIGN.md section 6): the user must hold the read
 * permission of that row and be able to read the row itself, in the scope of `api/db/scope.ts` (mode
 * `all`, so "Deleted task X" stays visible to whoever could see the task). The first rule matching an
 * activity's entity type (and action, when a rule names actions) applies. Administration events (users,
 * roles, companies) and activities about nothing known are for user administrators only.
 */
const ACTIVITY_RULES: {
  entity: string;
  actions?: readonly string[];
  table: ScopedTable;
  permission: string;
}[] = [
  {
    entity: 'project',
    actions: ['project_health_calculated'],
    table: 'projects',
    permission: 'project_health:read',
  },
  { entity: 'project', table: 'projects', permission: 'projects:read' },
  { entity: 'task', table: 'tasks', permission: 'tasks:read' },
  { entity: 'project_log', table: 'project_logs', permission: 'logs:read' },
  { entity: 'photo', table: 'photos', permission: 'photos:read' },
  { entity: 'schedule_change', table: 'schedule_changes', permission: 'schedule_changes:read' },
  { entity: 'change_order', table: 'change_orders', permission: 'change_orders:read' },
  { entity: 'communication', table: 'communications', permission: 'communications:read' },
  { entity: 'risk_assessment', table: 'risk_assessments', permission: 'project_health:read' },
];
const ADMIN_PERMISSION = 'rbac:manage';
const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The WHERE (over `user_activities`, `@company`/`@user`) of the activities this user may see. */
export function visibleActivitiesFragment(user: SessionUser): string {
  const scoped = isScopedToAssignments(user);
  const a = 'user_activities';
  const alternatives: string[] = [];
  const claimed = new Map<string, string[]>();
  for (const rule of ACTIVITY_RULES) {
    const earlier = claimed.get(rule.entity) ?? [];
    if (rule.actions) claimed.set(rule.entity, [...earlier, ...rule.actions]);
    if (!user.permissions.has(rule.permission)) continue;
    const action = rule.actions
      ? `${a}.action_type IN (${rule.actions.map(quote).join(', ')})`
      : earlier.length
        ? `${a}.action_type NOT IN (${earlier.map(quote).join(', ')})`
        : '1';
    const x = `${a}_x`;
    const target = `EXISTS (SELECT 1 FROM ${rule.table} ${x} WHERE ${x}.id = ${a}.entity_id AND ${scopeWhere(rule.table, scoped, 'all', x)})`;
    alternatives.push(`(${a}.entity_type = ${quote(rule.entity)} AND ${action} AND ${target})`);
  }
  if (user.permissions.has(ADMIN_PERMISSION)) {
    const known = [...new Set(ACTIVITY_RULES.map((r) => r.entity))].map(quote).join(', ');
    alternatives.push(`(${a}.entity_type IS NULL OR ${a}.entity_type NOT IN (${known}))`);
  }
  const visible = alternatives.length ? alternatives.join(' OR ') : '0';
  return `${a}.company_id = @company AND (${visible})`;
}

export const activityRoutes = new Hono<AppEnv>()
  // Spec 01 section 3: Activity {id, action_type, first_name, email, description, created_at}, newest first.
  .get('/', (c) => {
    const user = sessionUser(c);
    const { limit, before, beforeId } = parseWith(ActivityQuery, c.req.query());
    const cursor = before
      ? beforeId
        ? or(
            lt(userActivities.createdAt, before),
            and(eq(userActivities.createdAt, before), lt(userActivities.id, beforeId)),
          )
        : lt(userActivities.createdAt, before)
      : undefined;
    const rows = c.var.deps.db
      .select({
        id: userActivities.id,
        action_type: userActivities.actionType,
        first_name: users.firstName,
        email: users.email,
        description: userActivities.description,
        created_at: userActivities.createdAt,
      })
      .from(userActivities)
      .leftJoin(users, eq(users.id, userActivities.userId))
      .where(and(scopeSql(visibleActivitiesFragment(user), user), cursor))
      .orderBy(desc(userActivities.createdAt), desc(userActivities.id))
      .limit(limit)
      .all();
    return c.json(rows);
  });
