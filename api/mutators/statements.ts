import type Database from 'better-sqlite3';
import { getTableColumns, getTableName, is, SQL, type Column } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { scopeWhere, type ScopedTable } from '../db/scope.ts';

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
  /** `"sql_name" AS "camelKey"` for every column. */
  readonly select: string;
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
    // Columns whose driver value may differ from the JS value (JSON, booleans): all but the plain ones.
    this.mapped = this.columns.filter(([, col]) => !PLAIN_COLUMNS.has(col.columnType));
  }

  /** A row as drizzle returns it, from a statement selecting `select`. */
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

/** Named parameters of the visibility lookups (`@company` and `@user` as in `api/db/scope.ts`). */
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
  // The row with this id if the user may read it, both variants of the one scope rule prepared.
  const visible = (table: ScopedTable, rows: TableRows<SQLiteTable>): Scoped<Raw> => ({
    company: sqlite.prepare<[Visible], Raw>(
      `SELECT ${rows.select} FROM ${table} WHERE ${table}.id = @id AND ${scopeWhere(table, false, 'live')}`,
    ),
    assigned: sqlite.prepare<[Visible], Raw>(
      `SELECT ${rows.select} FROM ${table} WHERE ${table}.id = @id AND ${scopeWhere(table, true, 'live')}`,
    ),
  });
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
    project: visible('projects', projects),
    task: visible('tasks', tasks),
    log: visible('project_logs', projectLogs),
    photo: visible('photos', photos),
    scheduleChange: visible('schedule_changes', scheduleChanges),
    objects: prepareObjectLookups(sqlite),
    // Photos the user may see waiting for these bytes (sync/SPEC.md B7); takes @sha, @company and @user.
    pendingPhotosOfBlob: {
      company: sqlite.prepare<[{ sha: string; company: string; user: string }], Raw>(
        `SELECT ${photos.select} FROM photos WHERE photos.sha256 = @sha AND photos.blob_status = 'pending'
           AND ${scopeWhere('photos', false, 'live')}`,
      ),
      assigned: sqlite.prepare<[{ sha: string; company: string; user: string }], Raw>(
        `SELECT ${photos.select} FROM photos WHERE photos.sha256 = @sha AND photos.blob_status = 'pending'
           AND ${scopeWhere('photos', true, 'live')}`,
      ),
    },
    /** Whether a photo the user may see names these bytes (a hash is not a capability either). */
    photoOfBlob: {
      company: sqlite
        .prepare<[{ sha: string; company: string; user: string }], number>(
          `SELECT 1 FROM photos WHERE photos.sha256 = @sha AND ${scopeWhere('photos', false, 'live')} LIMIT 1`,
        )
        .pluck(),
      assigned: sqlite
        .prepare<[{ sha: string; company: string; user: string }], number>(
          `SELECT 1 FROM photos WHERE photos.sha256 = @sha AND ${scopeWhere('photos', true, 'live')} LIMIT 1`,
        )
        .pluck(),
    },
    liveScheduleChangesOfTask: sqlite
      .prepare<[string, string], string>(
        'SELECT id FROM schedule_changes WHERE task_id = ? AND company_id = ? AND deleted_at IS NULL',
      )
      .pluck(),
  };
}

/** Address of an uploaded object as a log stores it. */
export const OBJECT_URL_PREFIX = '/api/objects/image/';

/**
 * Who may read the bytes stored under a key (DESIGN.md section 6: bytes are as visible as the rows naming
 * them). All take @key, @company and @user.
 */
function prepareObjectLookups(sqlite: Sqlite) {
  type Key = { key: string; company: string; user: string };
  const both = <R>(sql: (scoped: boolean) => string) => ({
    company: sqlite.prepare<[Key], R>(sql(false)),
    assigned: sqlite.prepare<[Key], R>(sql(true)),
  });
  const logNames = (alias: string) =>
    `EXISTS (SELECT 1 FROM json_each(${alias}.images) j WHERE j.value = '${OBJECT_URL_PREFIX}' || @key)`;
  return {
    /** A live photo the user may see whose bytes are stored under the key and have arrived. */
    photo: both<{ mime: string | null }>(
      (scoped) =>
        `SELECT mime_type AS mime FROM photos WHERE photos.filename = @key AND photos.blob_status = 'present'
           AND ${scopeWhere('photos', scoped, 'live')} LIMIT 1`,
    ),
    /** A live log the user may see that shows the object. */
    log: both<number>(
      (scoped) =>
        `SELECT 1 FROM project_logs WHERE ${scopeWhere('project_logs', scoped, 'live')}
           AND ${logNames('project_logs')} LIMIT 1`,
    ),
    /** Any row of the company naming the key, live or not: once one exists, rows decide, not the upload. */
    named: sqlite
      .prepare<[Key], number>(
        `SELECT 1 WHERE EXISTS (SELECT 1 FROM photos WHERE company_id = @company AND filename = @key)
           OR EXISTS (SELECT 1 FROM project_logs l WHERE l.company_id = @company AND ${logNames('l')})`,
      )
      .pluck(),
    /** The uploader of a presigned upload of the company. */
    uploader: sqlite
      .prepare<[Key], string | null>(
        'SELECT user_id FROM object_uploads WHERE key = @key AND company_id = @company',
      )
      .pluck(),
    recordUpload: sqlite.prepare<[string, string, string, string]>(
      `INSERT INTO object_uploads (key, company_id, user_id, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO NOTHING`,
    ),
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
