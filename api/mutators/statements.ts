import type Database from 'better-sqlite3';
import { Param, Placeholder, SQL, and, eq, getTableColumns, is, sql, type Column } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { bulkInsert } from '../db/bulk-insert.ts';
import { scopeSql, scopeWhere, type ScopedTable } from '../db/scope.ts';

/**
 * The mutators' hot queries, prepared once per database connection (DESIGN.md section 12: drizzle's query
 * builder costs 4-8x raw SQL per call, a prepared statement ~1.1x; budgets B2 and B4). Reads and writes of
 * whole rows are drizzle's own prepared statements (`.prepare()` with placeholders), so rows are mapped by
 * drizzle and nowhere else; the few plain SQL statements below return single values, never rows.
 */

type Sqlite = Database.Database;
type Raw = Record<string, unknown>;

/** What a drizzle prepared query exposes: its SQL, its parameters and the columns of its rows. */
interface DrizzlePrepared {
  query: { sql: string; params: unknown[] };
  fields?: { path: string[]; field: unknown }[];
}

/**
 * Runs a query drizzle built and prepared, without drizzle's per-call machinery (ADR 020: B2, B4): the
 * parameters are bound through the same column encoders and the row decoded with the same column decoders
 * drizzle uses, so rows are exactly drizzle's; only the generic lookups per call (`is()` on every
 * parameter, toggling the statement's array mode, the generic row mapper) are done once here.
 */
function leanGet(sqlite: Sqlite, prepared: unknown, encoded = false): LeanStatement {
  const q = prepared as DrizzlePrepared;
  const stmt = sqlite.prepare<unknown[], unknown[]>(q.query.sql);
  // `encoded`: the caller passes values already through their column's encoder (see `TableRows`).
  const bind = q.query.params.map((p): ((values: Raw) => unknown) => {
    if (is(p, Placeholder)) return (values) => values[p.name];
    if (is(p, Param) && is(p.value, Placeholder)) {
      const name = p.value.name;
      return encoded ? (values) => values[name] : (values) => p.encoder.mapToDriverValue(values[name]);
    }
    return () => p;
  });
  if (!stmt.reader)
    return { get: () => undefined, run: (values) => stmt.run(bind.map((b) => b(values))).changes };
  stmt.raw(true);
  const columns = (q.fields ?? []).map((f) => ({
    key: f.path[0]!,
    column: f.field as { mapFromDriverValue(v: unknown): unknown },
  }));
  if (q.fields?.some((f) => f.path.length !== 1)) throw new Error('leanGet maps flat rows only');
  return {
    get(values) {
      const row = stmt.get(bind.map((b) => b(values)));
      if (!row) return undefined;
      const out: Raw = {};
      for (let i = 0; i < columns.length; i++) {
        const v = row[i];
        out[columns[i]!.key] = v === null ? null : columns[i]!.column.mapFromDriverValue(v);
      }
      return out;
    },
    run: (values) => stmt.run(bind.map((b) => b(values))).changes,
  };
}

interface LeanStatement {
  /** The first row (RETURNING), decoded as drizzle decodes it. */
  get(values: Raw): unknown;
  /** Runs it; the number of rows written. */
  run(values: Raw): number;
}

/** A column of a `TableRows` table, with what building its rows needs worked out once. */
interface ColumnInfo {
  key: string;
  column: Column;
  /** The storage class a bound value must already have for SQLite to store it unchanged. */
  storage: 'text' | 'number' | 'other';
  /** The static default as bound (drizzle binds `column.default` for a column left out of an insert). */
  defaultDriver: unknown;
}

function columnInfo(key: string, column: Column): ColumnInfo {
  const type = column.getSQLType();
  const storage = type.startsWith('text')
    ? 'text'
    : type === 'integer' || type === 'real'
      ? 'number'
      : 'other';
  const defaultDriver =
    column.default === undefined || column.default === null || is(column.default, SQL)
      ? null
      : column.mapToDriverValue(column.default);
  return { key, column, storage, defaultDriver };
}

const NOT_AS_BOUND = Symbol('not as bound');

/**
 * The value SQLite reads back for a value bound to a column, decoded as drizzle decodes it: the bound value
 * itself when it already has the column's storage class. Anything SQLite would convert (a number into TEXT
 * becomes '42.0', NaN becomes NULL, a lone surrogate is replaced) answers NOT_AS_BOUND, and the write reads
 * its row back instead.
 */
function readBack(info: ColumnInfo, driver: unknown): unknown {
  if (driver === null) return null;
  const same =
    info.storage === 'text'
      ? typeof driver === 'string' && driver.isWellFormed()
      : info.storage === 'number' &&
        typeof driver === 'number' &&
        Number.isFinite(driver) &&
        !Object.is(driver, -0);
  return same ? info.column.mapFromDriverValue(driver) : NOT_AS_BOUND;
}

/** A mirrored table with the `id` and `company_id` every write is keyed by. */
type KeyedTable = SQLiteTable & { id: SQLiteColumn; companyId: SQLiteColumn };

/**
 * Whole-row writes of one table as drizzle prepared statements, one per set of columns written. A write
 * whose resulting row is known without reading it (an insert of static values and defaults, an update of a
 * row the caller has just read) skips RETURNING, which cost about as much as the write itself (ADR 020,
 * round 4: ~5 us of ~10 us per row); the row it returns is the one RETURNING would have read.
 */
class TableRows<T extends KeyedTable> {
  private readonly columns: ColumnInfo[];
  private readonly inserts = new Map<string, LeanStatement>();
  private readonly updates = new Map<string, LeanStatement>();
  /** Columns the database or drizzle fill in by themselves: their rows are read back, never built. */
  private readonly computed: boolean;

  constructor(
    private readonly db: Db,
    private readonly table: T,
  ) {
    const columns = Object.entries(getTableColumns(table));
    this.columns = columns.map(([key, column]) => columnInfo(key, column));
    this.computed = columns.some(
      ([, col]) => col.generated !== undefined || col.onUpdateFn !== undefined || is(col.default, SQL),
    );
  }

  /** The defined keys of `values`, in column order (the statement's signature). */
  private keysOf(values: Raw): string[] {
    return this.columns.filter((c) => values[c.key] !== undefined).map((c) => c.key);
  }

  /** Bounded: there are only so many column subsets, but never let a stream of odd patches grow it. */
  private cached<S>(map: Map<string, S>, key: string, make: () => S): S {
    let stmt = map.get(key);
    if (!stmt) {
      stmt = make();
      if (map.size < 256) map.set(key, stmt);
    }
    return stmt;
  }

  private placeholders(keys: string[]) {
    return Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)]));
  }

  /**
   * The row that writing `values` over `base` (over the defaults, for an insert) leaves, with the values
   * encoded once for binding; undefined when SQLite would store a value other than as bound.
   */
  private rowAfter(
    base: Raw | undefined,
    values: Raw,
  ): { row: Raw; encoded: Raw; keys: string[] } | undefined {
    if (this.computed) return undefined;
    const row: Raw = {};
    const encoded: Raw = {};
    const keys: string[] = [];
    for (const info of this.columns) {
      const key = info.key;
      const given = values[key];
      let stored: unknown;
      if (given !== undefined) {
        const driver = info.column.mapToDriverValue(given);
        encoded[key] = driver;
        keys.push(key);
        stored = readBack(info, driver);
      } else if (base) {
        if (!(key in base)) return undefined;
        stored = base[key];
      } else {
        stored = readBack(info, info.defaultDriver);
      }
      if (stored === NOT_AS_BOUND) return undefined;
      row[key] = stored;
    }
    return { row, encoded, keys };
  }

  /**
   * INSERT of a new row, returned as stored. Columns left out take their static defaults; a column whose
   * default is computed per row (timestamps) must be given, since a prepared statement would freeze it.
   */
  insert(values: T['$inferInsert']): T['$inferSelect'] {
    const input = values as Raw;
    const known = this.rowAfter(undefined, input);
    const keys = known?.keys ?? this.keysOf(input);
    const stmt = this.cached(this.inserts, `${known ? '' : 'returning:'}${keys.join(',')}`, () => {
      const frozen = this.columns.find((c) => c.column.defaultFn && !keys.includes(c.key));
      if (frozen) throw new Error(`${frozen.key} must be given: its default is computed per row`);
      const insert = this.db.insert(this.table).values(this.placeholders(keys) as never);
      return known
        ? leanGet(this.db.$client, insert.prepare(), true)
        : leanGet(this.db.$client, insert.returning().prepare());
    });
    if (!known) return stmt.get(input) as T['$inferSelect'];
    stmt.run(known.encoded);
    return known.row as T['$inferSelect'];
  }

  /**
   * UPDATE of the defined values of `set` (undefined ones are left alone, as drizzle does) on the row with
   * this id in this company, returning the row as stored (undefined when there is none). `current`, when
   * given, must be that row as read in this transaction with nothing written to it since: the row is then
   * built from it instead of read back.
   */
  update(
    id: string,
    companyId: string,
    set: Partial<T['$inferInsert']>,
    current?: T['$inferSelect'],
  ): T['$inferSelect'] | undefined {
    const input = set as Raw;
    const known = current ? this.rowAfter(current as Raw, input) : undefined;
    const keys = known?.keys ?? this.keysOf(input);
    const stmt = this.cached(this.updates, `${known ? '' : 'returning:'}${keys.join(',')}`, () => {
      const update = this.db
        .update(this.table)
        .set(this.placeholders(keys) as never)
        .where(
          and(
            eq(this.table.id, sql.placeholder('$id')),
            eq(this.table.companyId, sql.placeholder('$company')),
          ),
        );
      return known
        ? leanGet(this.db.$client, update.prepare(), true)
        : leanGet(this.db.$client, update.returning().prepare());
    });
    if (!known) {
      return stmt.get({ ...input, $id: id, $company: companyId }) as T['$inferSelect'] | undefined;
    }
    known.encoded.$id = id;
    known.encoded.$company = companyId;
    return stmt.run(known.encoded) === 1 ? (known.row as T['$inferSelect']) : undefined;
  }
}

/** id, user_id, company_id, action_type, description, entity_type, entity_id, metadata, created_at. */
export type ActivityValues = [
  string,
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string,
];

const ACTIVITY_INSERT = `INSERT INTO user_activities (id, user_id, company_id, action_type, description, entity_type,
  entity_id, metadata, created_at)`;

/** Named parameters of the visibility lookups (`@company` and `@user` as in `api/db/scope.ts`). */
export interface Visible {
  id: string;
  company: string;
  user: string;
}

/** A lookup with a variant for everyone and one for subcontractors (scoped to their assignments). */
export interface Scoped<R> {
  company: { get(params: Visible): R | undefined };
  assigned: { get(params: Visible): R | undefined };
}

function prepareStatements(db: Db) {
  const sqlite = db.$client;
  const rows = {
    projects: new TableRows(db, schema.projects),
    tasks: new TableRows(db, schema.tasks),
    projectLogs: new TableRows(db, schema.projectLogs),
    photos: new TableRows(db, schema.photos),
    scheduleChanges: new TableRows(db, schema.scheduleChanges),
  };
  // The row with this id if the user may read it, both variants of the one scope rule prepared.
  const byId = <T extends KeyedTable>(table: T, where: ScopedTable) => {
    const prepare = (scoped: boolean) =>
      db
        .select()
        .from(table as KeyedTable)
        .where(
          and(
            eq(table.id, sql.placeholder('id')),
            scopeSql(scopeWhere(where, scoped, 'live'), 'placeholders'),
          ),
        )
        .prepare();
    return { company: prepare(false), assigned: prepare(true) } as unknown as Scoped<T['$inferSelect']>;
  };
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
    /** A push batch writes the counter once, at its end (ADR 020). */
    setLastVersion: sqlite.prepare<[number, string]>('UPDATE companies SET last_version = ? WHERE id = ?'),
    insertActivity: sqlite.prepare<ActivityValues>(`${ACTIVITY_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    insertActivities: bulkInsert<ActivityValues>(sqlite, ACTIVITY_INSERT, 9),
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
    project: byId(schema.projects, 'projects'),
    task: byId(schema.tasks, 'tasks'),
    log: byId(schema.projectLogs, 'project_logs'),
    photo: byId(schema.photos, 'photos'),
    scheduleChange: byId(schema.scheduleChanges, 'schedule_changes'),
    objects: prepareObjectLookups(sqlite),
    // Photos the user may see waiting for these bytes (sync/SPEC.md B7); takes @sha, @company and @user.
    pendingPhotosOfBlob: (() => {
      const prepare = (scoped: boolean) =>
        db
          .select()
          .from(schema.photos)
          .where(
            and(
              eq(schema.photos.sha256, sql.placeholder('sha')),
              eq(schema.photos.blobStatus, 'pending'),
              scopeSql(scopeWhere('photos', scoped, 'live'), 'placeholders'),
            ),
          )
          .prepare();
      return { company: prepare(false), assigned: prepare(true) };
    })(),
    /**
     * A live photo the user may see that names these bytes, a present one first (a hash is not a capability
     * either: bytes are reused or accepted only for a user who could read them).
     */
    photoOfBlob: (() => {
      type Row = { filename: string; mimeType: string | null; sizeBytes: number | null; blobStatus: string };
      const prepare = (scoped: boolean) =>
        sqlite.prepare<[{ sha: string; company: string; user: string }], Row>(
          `SELECT filename, mime_type AS mimeType, size_bytes AS sizeBytes, blob_status AS blobStatus
           FROM photos WHERE photos.sha256 = @sha AND ${scopeWhere('photos', scoped, 'live')}
           ORDER BY blob_status = 'present' DESC LIMIT 1`,
        );
      return { company: prepare(false), assigned: prepare(true) };
    })(),
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
  if (!s) cache.set(db.$client, (s = prepareStatements(db)));
  return s;
}
