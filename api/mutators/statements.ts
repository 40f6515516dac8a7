import type Database from 'better-sqlite3';
import { getTableColumns, getTableName, is, SQL, type Column } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';

/**
 * The mutators' hot queries, prepared once per database connection (DESIGN.md section 12: drizzle's query
 * builder costs 4-8x raw SQL per call, a prepared statement ~1.1x; budgets B2 and B4). Rows are read and
 * written exactly as drizzle does it, from the drizzle table definitions: camelCase keys in the table's
 * column order, each value through its column's driver mapping (JSON columns as JSON text, booleans as
 * 0/1), and on insert the column defaults drizzle would fill in.
 */

type Sqlite = Database.Database;
type Raw = Record<string, unknown>;

/** Drizzle column types whose driver mapping is the identity. */
const PLAIN_COLUMNS = new Set(['SQLiteText', 'SQLiteInteger', 'SQLiteReal']);

/** Reads and writes one table's rows like drizzle's query builder. */
class TableRows<T extends SQLiteTable> {
  readonly name: string;
  private readonly columns: [key: string, column: Column][];
  /** `"sql_name" AS "camelKey"` for every column, unqualified (for RETURNING) and qualified (for joins). */
  readonly select: string;
  readonly qualified: string;
  private readonly mapped: [key: string, column: Column][];
  private insertStmt?: Database.Statement<unknown[], Raw>;
  private readonly updates = new Map<string, Database.Statement<unknown[], Raw>>();

  constructor(
    private readonly sqlite: Sqlite,
    table: T,
  ) {
    this.name = getTableName(table);
    this.columns = Object.entries(getTableColumns(table));
    for (const [key, col] of this.columns) {
      // Drizzle would put SQL expressions or update hooks into its statements: not supported here.
      if (is(col.default, SQL) || col.onUpdateFn) throw new Error(`${this.name}.${key}: unsupported column`);
    }
    this.select = this.columns.map(([key, col]) => `"${col.name}" AS "${key}"`).join(', ');
    this.qualified = this.columns.map(([key, col]) => `"${this.name}"."${col.name}" AS "${key}"`).join(', ');
    // Columns whose driver value may differ from the JS value (JSON, booleans): all but the plain ones.
    this.mapped = this.columns.filter(([, col]) => !PLAIN_COLUMNS.has(col.columnType));
  }

  /** A row as drizzle returns it, from a statement selecting `select` or `qualified`. */
  decode(raw: Raw): T['$inferSelect'] {
    for (const [key, col] of this.mapped) {
      const value = raw[key];
      if (value !== null && value !== undefined) raw[key] = col.mapFromDriverValue(value);
    }
    return raw as T['$inferSelect'];
  }

  private encode(col: Column, value: unknown): unknown {
    return value === null ? null : col.mapToDriverValue(value);
  }

  /** INSERT ... RETURNING the new row; a missing value takes the column's default, as in drizzle. */
  insert(values: T['$inferInsert']): T['$inferSelect'] {
    this.insertStmt ??= this.sqlite.prepare(
      `INSERT INTO ${this.name} (${this.columns.map(([, col]) => `"${col.name}"`).join(', ')})
       VALUES (${this.columns.map(() => '?').join(', ')}) RETURNING ${this.select}`,
    );
    const input = values as Raw;
    const params = this.columns.map(([key, col]) => {
      const value = input[key];
      if (value !== undefined) return this.encode(col, value);
      if (col.default !== undefined && col.default !== null) return this.encode(col, col.default);
      if (col.defaultFn) return this.encode(col, col.defaultFn());
      return null;
    });
    return this.decode(this.insertStmt.get(params)!);
  }

  /**
   * UPDATE of the defined values of `set` (undefined ones are left alone, as drizzle does) on the row with
   * this id in this company, RETURNING the row (undefined when there is none). One statement per column set.
   */
  update(id: string, companyId: string, set: Partial<T['$inferInsert']>): T['$inferSelect'] | undefined {
    const input = set as Raw;
    const names: string[] = [];
    const params: unknown[] = [];
    for (const [key, col] of this.columns) {
      const value = input[key];
      if (value === undefined) continue;
      names.push(col.name);
      params.push(this.encode(col, value));
    }
    const signature = names.join(',');
    let stmt = this.updates.get(signature);
    if (!stmt) {
      stmt = this.sqlite.prepare(
        `UPDATE ${this.name} SET ${names.map((n) => `"${n}" = ?`).join(', ')}
         WHERE id = ? AND company_id = ? RETURNING ${this.select}`,
      );
      // Bounded: there are only so many column subsets, but never let a stream of odd patches grow it.
      if (this.updates.size < 256) this.updates.set(signature, stmt);
    }
    params.push(id, companyId);
    const raw = stmt.get(params);
    return raw ? this.decode(raw) : undefined;
  }
}

/** Subcontractors' projects (DESIGN.md section 6), for `IN (...)`; needs @user and @company. */
const ASSIGNED_PROJECTS = `SELECT project_id FROM subcontractor_assignments
  WHERE subcontractor_id = @user AND company_id = @company AND status = 'active'`;

/** A subcontractor sees the tasks of its projects and the tasks assigned to it; needs @user and @company. */
const TASK_SCOPE = `(tasks.assignee_id = @user OR tasks.project_id IN (${ASSIGNED_PROJECTS}))`;

/** Named parameters of the visibility lookups. */
export interface Visible {
  id: string;
  company: string;
  user: string;
}

/** A lookup with a variant for everyone and one for subcontractors (scoped to their assignments). */
export interface Scoped<R> {
  company: Database.Statement<[Visible], R>;
  assigned: Database.Statement<[Visible], R>;
}

function prepareStatements(sqlite: Sqlite) {
  const rows = {
    projects: new TableRows(sqlite, schema.projects),
    tasks: new TableRows(sqlite, schema.tasks),
    projectLogs: new TableRows(sqlite, schema.projectLogs),
    photos: new TableRows(sqlite, schema.photos),
    scheduleChanges: new TableRows(sqlite, schema.scheduleChanges),
  };
  const { projects, tasks, projectLogs, photos, scheduleChanges } = rows;
  // `sql(scope)` with no scope for everyone, with the subcontractor's scope for subcontractors.
  const scoped = <R>(sql: (scope: string) => string, scope: string): Scoped<R> => ({
    company: sqlite.prepare<[Visible], R>(sql('')),
    assigned: sqlite.prepare<[Visible], R>(sql(` AND ${scope}`)),
  });
  // A child row (log, photo) joined to its project: own company, both live, the project visible.
  const onVisibleProject = (child: TableRows<SQLiteTable>) =>
    scoped<Raw>(
      (scope) =>
        `SELECT ${child.qualified} FROM ${child.name} JOIN projects ON projects.id = ${child.name}.project_id
         WHERE ${child.name}.id = @id AND ${child.name}.company_id = @company AND ${child.name}.deleted_at IS NULL
           AND projects.company_id = @company AND projects.deleted_at IS NULL${scope}`,
      `projects.id IN (${ASSIGNED_PROJECTS})`,
    );
  const exists = (table: string) =>
    sqlite.prepare<[string], number>(`SELECT 1 FROM ${table} WHERE id = ?`).pluck();
  const tombstone = (table: string) =>
    sqlite.prepare<[string, number, string, string, string, string]>(
      `UPDATE ${table} SET deleted_at = ?, version = ?, updated_at = ?, updated_by = ?
       WHERE id = ? AND company_id = ? AND deleted_at IS NULL`,
    );
  return {
    rows,
    nextVersion: sqlite
      .prepare<[string], number>(
        'UPDATE companies SET last_version = last_version + 1 WHERE id = ? RETURNING last_version',
      )
      .pluck(),
    insertActivity: sqlite.prepare<
      [string, string, string, string, string, string | null, string | null, string | null, string]
    >(
      `INSERT INTO user_activities (id, user_id, company_id, action_type, description, entity_type, entity_id,
         metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertNotification: sqlite.prepare<
      [string, string, string, string, string, string, string | null, string | null, string]
    >(
      `INSERT INTO notifications (id, user_id, company_id, title, message, type, is_read, related_entity_type,
         related_entity_id, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
    ),
    usersWithPermission: sqlite
      .prepare<[string, string], string>(
        `SELECT u.id FROM users u
         JOIN role_permissions rp ON rp.role_id = u.role_id JOIN permissions p ON p.id = rp.permission_id
         WHERE u.company_id = ? AND u.is_active = 1 AND p.name = ?`,
      )
      .pluck(),
    activeUser: sqlite
      .prepare<[string, string], number>(
        'SELECT 1 FROM users WHERE id = ? AND company_id = ? AND is_active = 1',
      )
      .pluck(),
    exists: {
      projects: exists('projects'),
      tasks: exists('tasks'),
      project_logs: exists('project_logs'),
      photos: exists('photos'),
      schedule_changes: exists('schedule_changes'),
    },
    tombstone: {
      projects: tombstone('projects'),
      tasks: tombstone('tasks'),
      project_logs: tombstone('project_logs'),
      photos: tombstone('photos'),
      schedule_changes: tombstone('schedule_changes'),
    },
    project: scoped<Raw>(
      (scope) =>
        `SELECT ${projects.select} FROM projects
         WHERE id = @id AND company_id = @company AND deleted_at IS NULL${scope}`,
      `id IN (${ASSIGNED_PROJECTS})`,
    ),
    task: scoped<Raw>(
      (scope) =>
        `SELECT ${tasks.select} FROM tasks WHERE id = @id AND company_id = @company AND deleted_at IS NULL${scope}`,
      TASK_SCOPE,
    ),
    log: onVisibleProject(projectLogs),
    photo: onVisibleProject(photos),
    // A schedule change of a task the user may see (EXISTS: `task_id IN (visible task ids)` would list them all).
    scheduleChange: scoped<Raw>(
      (scope) =>
        `SELECT ${scheduleChanges.select} FROM schedule_changes
         WHERE id = @id AND company_id = @company AND deleted_at IS NULL AND EXISTS (
           SELECT 1 FROM tasks WHERE tasks.id = schedule_changes.task_id AND tasks.company_id = @company
             AND tasks.deleted_at IS NULL${scope})`,
      TASK_SCOPE,
    ),
    liveScheduleChangesOfTask: sqlite
      .prepare<[string, string], string>(
        'SELECT id FROM schedule_changes WHERE task_id = ? AND company_id = ? AND deleted_at IS NULL',
      )
      .pluck(),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

const cache = new WeakMap<Sqlite, Statements>();

/** The prepared statements of this connection (prepared on first use). */
export function statements(db: Db): Statements {
  let s = cache.get(db.$client);
  if (!s) cache.set(db.$client, (s = prepareStatements(db.$client)));
  return s;
}
