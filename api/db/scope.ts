import { sql, type SQL } from 'drizzle-orm';

/**
 * The one visibility rule of the server (DESIGN.md section 6): which rows of a table a user may read.
 * Every read path builds its WHERE from here: REST lists and gets, the mutators' lookups, sync pull, photo
 * bytes and the activity feed. Nothing else may spell out the subcontractor rule.
 *
 * - Everyone sees only its own company's rows.
 * - A subcontractor sees the projects it has an active assignment on, the rows hanging off those projects
 *   (logs, photos, communications, change orders, risks, health metrics), the tasks of those projects plus
 *   the tasks assigned to it, and the schedule changes of the tasks it sees.
 *
 * Fragments are SQL text over two named parameters, `@company` and `@user` (better-sqlite3 binds them by
 * name), so hot paths prepare them once; `scopeSql` turns one into a drizzle `SQL` with bound values or
 * placeholders for the query builder. Correlated `EXISTS` probes the parent by primary key, so a lookup by
 * id never lists every visible parent.
 */

/** Who is reading: the parts of a session user the rule depends on. */
export interface Viewer {
  id: string;
  companyId: string;
  role: string;
}

/**
 * `live`: what REST shows (no tombstones, and the parents must be live too). `all`: what pull mirrors and
 * what an activity may be about (tombstones included, in the scope they had).
 */
export type ScopeMode = 'live' | 'all';

/** Subcontractors see only the projects they are assigned to; every other role sees its whole company. */
export function isScopedToAssignments(user: Pick<Viewer, 'role'>): boolean {
  return user.role === 'subcontractor';
}

/** The projects a subcontractor is assigned to (an active assignment). */
export const ASSIGNED_PROJECTS = `SELECT project_id FROM subcontractor_assignments
  WHERE subcontractor_id = @user AND company_id = @company AND status = 'active'`;

/** Tables hanging off one project: visible when their project is. */
const PROJECT_CHILDREN = {
  project_logs: { tombstones: true },
  photos: { tombstones: true },
  communications: { tombstones: false },
  change_orders: { tombstones: false },
  risk_assessments: { tombstones: false },
  project_health_metrics: { tombstones: false },
} as const;

/** The read-only mirrors (sync/SPEC.md L12): the company directory and the subcontractor assignments. */
export type DirectoryTable = 'users' | 'subcontractor_assignments';

export type ScopedTable =
  'projects' | 'tasks' | 'schedule_changes' | DirectoryTable | keyof typeof PROJECT_CHILDREN;

const and = (parts: (string | false)[]) => parts.filter(Boolean).join(' AND ');

function projectWhere(a: string, scoped: boolean, mode: ScopeMode): string {
  return and([
    `${a}.company_id = @company`,
    mode === 'live' && `${a}.deleted_at IS NULL`,
    scoped && `${a}.id IN (${ASSIGNED_PROJECTS})`,
  ]);
}

/** `a.project_id` names a project the user may see. */
function onVisibleProject(a: string, scoped: boolean, mode: ScopeMode): string {
  const p = `${a}_p`;
  return `EXISTS (SELECT 1 FROM projects ${p} WHERE ${p}.id = ${a}.project_id AND ${projectWhere(p, scoped, mode)})`;
}

function taskWhere(a: string, scoped: boolean, mode: ScopeMode): string {
  return and([
    `${a}.company_id = @company`,
    mode === 'live' && `${a}.deleted_at IS NULL`,
    scoped && `(${a}.assignee_id = @user OR ${onVisibleProject(a, scoped, mode)})`,
  ]);
}

/**
 * The WHERE selecting the rows of `table` (named `alias` in the query) that a user may read. `scoped` is
 * `isScopedToAssignments(user)`; it is a separate argument so callers can prepare both variants once.
 */
export function scopeWhere(
  table: ScopedTable,
  scoped: boolean,
  mode: ScopeMode,
  alias: string = table,
): string {
  const a = alias;
  switch (table) {
    case 'projects':
      return projectWhere(a, scoped, mode);
    case 'tasks':
      return taskWhere(a, scoped, mode);
    case 'schedule_changes': {
      const t = `${a}_t`;
      return and([
        `${a}.company_id = @company`,
        mode === 'live' && `${a}.deleted_at IS NULL`,
        (scoped || mode === 'live') &&
          `EXISTS (SELECT 1 FROM tasks ${t} WHERE ${t}.id = ${a}.task_id AND ${taskWhere(t, scoped, mode)})`,
      ]);
    }
    // Everyone reads the names of its company's people (assignees, managers); what of a row it reads is
    // decided by `directoryEmailSql`.
    case 'users':
      return `${a}.company_id = @company`;
    // A subcontractor reads its own assignments only; live projects only for REST.
    case 'subcontractor_assignments':
      return and([
        `${a}.company_id = @company`,
        scoped && `${a}.subcontractor_id = @user`,
        mode === 'live' && onVisibleProject(a, false, 'live'),
      ]);
    default: {
      const child = PROJECT_CHILDREN[table];
      return and([
        `${a}.company_id = @company`,
        mode === 'live' && child.tombstones && `${a}.deleted_at IS NULL`,
        // Company-wide readers of the full mirror need no join: a tombstoned project tombstones its children.
        (scoped || mode === 'live') && onVisibleProject(a, scoped, mode),
      ]);
    }
  }
}

/**
 * Colleagues' email addresses are for the office roles (administrators and managers, who assign and
 * contact people); crew and subcontractors read names only, and their own address (sync/SPEC.md L12).
 */
export function seesColleagueEmails(user: Pick<Viewer, 'role'>): boolean {
  return user.role !== 'crew' && user.role !== 'subcontractor';
}

/** The `email` a user may read of the `users` row `alias`: null for a colleague when the role may not. */
export function directoryEmailSql(alias: string, seesEmails: boolean): string {
  return seesEmails ? `${alias}.email` : `CASE WHEN ${alias}.id = @user THEN ${alias}.email END`;
}

/**
 * A project's money (budget and actual cost) is for the roles that read finance (DECISIONS.md: finance
 * stays admin and manager only): everyone else reads the project with both null, over REST and in the
 * mirror, so they never reach a crew member's or a subcontractor's phone.
 */
export const FINANCE_COLUMNS = { projects: ['budget', 'actualCost'] } as const;

export function seesFinance(user: { permissions: ReadonlySet<string> }): boolean {
  return user.permissions.has('finance:read');
}

/** A project row as `user` may read it (`FINANCE_COLUMNS`). */
export function projectFor<T extends { budget?: unknown; actualCost?: unknown }>(
  user: { permissions: ReadonlySet<string> },
  row: T,
): T {
  return seesFinance(user) ? row : { ...row, budget: null, actualCost: null };
}

/** The named parameters every fragment takes. */
export function scopeParams(user: Viewer): { company: string; user: string } {
  return { company: user.companyId, user: user.id };
}

/**
 * A fragment as drizzle SQL: `@company` and `@user` become bound values of this user, or, with
 * `placeholders`, drizzle placeholders named `company` and `user` for a `.prepare()`d query.
 */
export function scopeSql(fragment: string, user: Viewer | 'placeholders'): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const m of fragment.matchAll(/@(company|user)\b/g)) {
    chunks.push(sql.raw(fragment.slice(last, m.index)));
    const name = m[1] as 'company' | 'user';
    chunks.push(user === 'placeholders' ? sql`${sql.placeholder(name)}` : sql`${scopeParams(user)[name]}`);
    last = m.index + m[0].length;
  }
  chunks.push(sql.raw(fragment.slice(last)));
  return sql`(${sql.join(chunks)})`;
}

/** Drizzle WHERE for the rows of `table` this user may read, as REST shows them (`live`). */
export function visibleWhere(table: ScopedTable, user: Viewer, mode: ScopeMode = 'live'): SQL {
  return scopeSql(scopeWhere(table, isScopedToAssignments(user), mode), user);
}

/**
 * Rows that are about another row (activities, notifications) are visible only to a user who could read
 * that row (DESIGN.md section 6): with the read permission of its table, in the scope above (mode `all`,
 * so "Deleted task X" stays visible to whoever could see the task). The first rule matching the target's
 * type (and action, when a rule names actions) applies.
 */
const TARGET_RULES: { type: string; actions?: readonly string[]; table: ScopedTable; permission: string }[] =
  [
    {
      type: 'project',
      actions: ['project_health_calculated'],
      table: 'projects',
      permission: 'project_health:read',
    },
    { type: 'project', table: 'projects', permission: 'projects:read' },
    { type: 'task', table: 'tasks', permission: 'tasks:read' },
    { type: 'project_log', table: 'project_logs', permission: 'logs:read' },
    { type: 'photo', table: 'photos', permission: 'photos:read' },
    { type: 'schedule_change', table: 'schedule_changes', permission: 'schedule_changes:read' },
    { type: 'change_order', table: 'change_orders', permission: 'change_orders:read' },
    { type: 'communication', table: 'communications', permission: 'communications:read' },
    { type: 'risk_assessment', table: 'risk_assessments', permission: 'project_health:read' },
  ];

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Drizzle WHERE over a table whose rows name a target by `type`/`id` columns (and optionally an `action`
 * column): the rows whose target this user may read. Rows naming no known type are visible when
 * `untargeted` is true (the caller decides: a personal notification, or an administrator reading the feed).
 */
export function visibleTargetWhere(
  user: Viewer & { permissions: ReadonlySet<string> },
  cols: { table: string; type: string; id: string; action?: string },
  untargeted: boolean,
): SQL {
  const scoped = isScopedToAssignments(user);
  const a = cols.table;
  const alternatives: string[] = [];
  const claimed = new Map<string, string[]>();
  for (const rule of TARGET_RULES) {
    const earlier = claimed.get(rule.type) ?? [];
    if (rule.actions) claimed.set(rule.type, [...earlier, ...rule.actions]);
    if (!user.permissions.has(rule.permission)) continue;
    const action = !cols.action
      ? rule.actions
        ? 'FALSE'
        : 'TRUE'
      : rule.actions
        ? `${a}.${cols.action} IN (${rule.actions.map(quote).join(', ')})`
        : earlier.length
          ? `${a}.${cols.action} NOT IN (${earlier.map(quote).join(', ')})`
          : 'TRUE';
    const x = `${a}_x`;
    const target = `EXISTS (SELECT 1 FROM ${rule.table} ${x} WHERE ${x}.id = ${a}.${cols.id} AND ${scopeWhere(rule.table, scoped, 'all', x)})`;
    alternatives.push(`(${a}.${cols.type} = ${quote(rule.type)} AND ${action} AND ${target})`);
  }
  if (untargeted) {
    const known = [...new Set(TARGET_RULES.map((r) => r.type))].map(quote).join(', ');
    alternatives.push(`(${a}.${cols.type} IS NULL OR ${a}.${cols.type} NOT IN (${known}))`);
  }
  return scopeSql(alternatives.length ? alternatives.join(' OR ') : 'FALSE', user);
}
