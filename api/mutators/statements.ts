import { Param, Placeholder, SQL, and, eq, getTableColumns, is, sql, type Column } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { drizzle as proxyDrizzle } from 'drizzle-orm/sqlite-proxy';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { scopeSql, scopeWhere, type ScopedTable } from '../db/scope.ts';
import { bulkInsert } from '../db/bulk-insert.ts';
import { jsonArrayHas, rawStmt, rowsStmt, valueStmt, type SqlConn, type Stmt } from '../db/sql.ts';

/**
 * The mutators' hot statements, built once (DESIGN.md section 12: drizzle's query builder costs 4-8x raw SQL
 * per call, a prepared statement ~1.1x; budgets B2 and B4) and run on either database through the seam
 * (ADR 027). Reads and writes of whole rows are built by drizzle's query builder, so rows are mapped by
 * drizzle's column decoders and nowhere else; the plain SQL statements below return single values, never rows.
 */

type Raw = Record<string, unknown>;

/** Builds SQL only: the statements below are built once with it and run through a connection's `SqlConn`. */
const build = proxyDrizzle(async () => ({ rows: [] }), { schema });

/** What a drizzle prepared query exposes: its SQL, its parameters and the columns of its rows. */
interface DrizzlePrepared {
  query: { sql: string; params: unknown[] };
  fields?: { path: string[]; field: unknown }[];
}

/**
 * A query drizzle built, run without drizzle's per-call machinery (ADR 020: B2, B4): the parameters are
 * bound through the same column encoders and the row decoded with the same column decoders drizzle uses, so
 * rows are exactly drizzle's; only the generic lookups per call (`is()` on every parameter, the generic row
 * mapper) are done once here.
 */
export interface Prepared<R> {
  readonly stmt: Stmt<unknown[]>;
  /** The statement's parameters from named values. */
  bind(values: Raw): unknown[];
  /** A row as drizzle decodes it (flat rows only). */
  decode(row: unknown[]): R;
}

function prepare<R>(prepared: unknown, encoded = false): Prepared<R> {
  const q = prepared as DrizzlePrepared;
  // `encoded`: the caller passes values already through their column's encoder (see `TableRows`).
  const binders = q.query.params.map((p): ((values: Raw) => unknown) => {
    if (is(p, Placeholder)) return (values) => values[p.name];
    if (is(p, Param) && is(p.value, Placeholder)) {
      const name = p.value.name;
      return encoded ? (values) => values[name] : (values) => p.encoder.mapToDriverValue(values[name]);
    }
    return () => p;
  });
  const columns = (q.fields ?? []).map((f) => ({
    key: f.path[0]!,
    column: f.field as { mapFromDriverValue(v: unknown): unknown },
  }));
  if (q.fields?.some((f) => f.path.length !== 1)) throw new Error('prepare maps flat rows only');
  return {
    stmt: rawStmt(q.query.sql),
    bind: (values) => binders.map((b) => b(values)),
    decode(row) {
      const out: Raw = {};
      for (let i = 0; i < columns.length; i++) {
        const v = row[i];
        out[columns[i]!.key] = v === null ? null : columns[i]!.column.mapFromDriverValue(v);
      }
      return out as R;
    },
  };
}

/** The first row of a prepared query (undefined when there is none), decoded. */
export function* getRow<R>(c: SqlConn, p: Prepared<R>, values: Raw): Op<R | undefined> {
  const row = yield* io(c.get(p.stmt, p.bind(values)));
  return row === undefined ? undefined : p.decode(row);
}

/** Every row of a prepared query, decoded. */
export function* allRows<R>(c: SqlConn, p: Prepared<R>, values: Raw): Op<R[]> {
  const rows = yield* io(c.all(p.stmt, p.bind(values)));
  return rows.map((r) => p.decode(r));
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
  private readonly inserts = new Map<string, Prepared<T['$inferSelect']>>();
  private readonly updates = new Map<string, Prepared<T['$inferSelect']>>();
  /** Columns the database or drizzle fill in by themselves: their rows are read back, never built. */
  private readonly computed: boolean;

  constructor(private readonly table: T) {
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
    c: SqlConn,
    base: Raw | undefined,
    values: Raw,
  ): { row: Raw; encoded: Raw; keys: string[] } | undefined {
    // What SQLite stores for a bound value is known (`readBack`); PostgreSQL answers RETURNING in the same
    // round trip as the write, so there it is always read back.
    if (this.computed || c.dialect !== 'sqlite') return undefined;
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
  *insert(c: SqlConn, values: T['$inferInsert']): Op<T['$inferSelect']> {
    const input = values as Raw;
    const known = this.rowAfter(c, undefined, input);
    const keys = known?.keys ?? this.keysOf(input);
    const stmt = this.cached(this.inserts, `${known ? '' : 'returning:'}${keys.join(',')}`, () => {
      const frozen = this.columns.find((col) => col.column.defaultFn && !keys.includes(col.key));
      if (frozen) throw new Error(`${frozen.key} must be given: its default is computed per row`);
      const insert = build.insert(this.table).values(this.placeholders(keys) as never);
      return known
        ? prepare<T['$inferSelect']>(insert.prepare(), true)
        : prepare<T['$inferSelect']>(insert.returning().prepare());
    });
    if (!known) return (yield* getRow(c, stmt, input))!;
    yield* io(c.run(stmt.stmt, stmt.bind(known.encoded)));
    return known.row as T['$inferSelect'];
  }

  /**
   * UPDATE of the defined values of `set` (undefined ones are left alone, as drizzle does) on the row with
   * this id in this company, returning the row as stored (undefined when there is none). `current`, when
   * given, must be that row as read in this transaction with nothing written to it since: the row is then
   * built from it instead of read back.
   */
  *update(
    c: SqlConn,
    id: string,
    companyId: string,
    set: Partial<T['$inferInsert']>,
    current?: T['$inferSelect'],
  ): Op<T['$inferSelect'] | undefined> {
    const input = set as Raw;
    const known = current ? this.rowAfter(c, current as Raw, input) : undefined;
    const keys = known?.keys ?? this.keysOf(input);
    const stmt = this.cached(this.updates, `${known ? '' : 'returning:'}${keys.join(',')}`, () => {
      const update = build
        .update(this.table)
        .set(this.placeholders(keys) as never)
        .where(
          and(
            eq(this.table.id, sql.placeholder('$id')),
            eq(this.table.companyId, sql.placeholder('$company')),
          ),
        );
      return known
        ? prepare<T['$inferSelect']>(update.prepare(), true)
        : prepare<T['$inferSelect']>(update.returning().prepare());
    });
    if (!known) return yield* getRow(c, stmt, { ...input, $id: id, $company: companyId });
    known.encoded.$id = id;
    known.encoded.$company = companyId;
    const written = yield* io(c.run(stmt.stmt, stmt.bind(known.encoded)));
    return written === 1 ? (known.row as T['$inferSelect']) : undefined;
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
  company: Prepared<R>;
  assigned: Prepared<R>;
}

/** The row with this id if the user may read it, both variants of the one scope rule built. */
function byId<T extends KeyedTable>(table: T, where: ScopedTable): Scoped<T['$inferSelect']> {
  const prepared = (scoped: boolean) =>
    prepare<T['$inferSelect']>(
      build
        .select()
        .from(table as KeyedTable)
        .where(
          and(
            eq(table.id, sql.placeholder('id')),
            scopeSql(scopeWhere(where, scoped, 'live'), 'placeholders'),
          ),
        )
        .prepare(),
    );
  return { company: prepared(false), assigned: prepared(true) };
}

const exists = (table: string) => valueStmt<number>(`SELECT 1 FROM ${table} WHERE id = ?`);
const tombstone = (table: string) =>
  rowsStmt(
    `UPDATE ${table} SET deleted_at = ?, version = ?, updated_at = ?, updated_by = ?
     WHERE id = ? AND company_id = ? AND deleted_at IS NULL`,
  );

/** Address of an uploaded object as a log stores it. */
export const OBJECT_URL_PREFIX = '/api/objects/image/';

export const statements = {
  rows: {
    projects: new TableRows(schema.projects),
    tasks: new TableRows(schema.tasks),
    projectLogs: new TableRows(schema.projectLogs),
    photos: new TableRows(schema.photos),
    scheduleChanges: new TableRows(schema.scheduleChanges),
  },
  nextVersion: valueStmt<number>(
    'UPDATE companies SET last_version = last_version + 1 WHERE id = ? RETURNING last_version',
  ),
  /** A push batch writes the counter once, at its end (ADR 020). */
  setLastVersion: rowsStmt('UPDATE companies SET last_version = ? WHERE id = ?'),
  insertActivity: rowsStmt(`${ACTIVITY_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  insertActivities: bulkInsert<ActivityValues>(ACTIVITY_INSERT, 9),
  insertNotification: rowsStmt(
    `INSERT INTO notifications (id, user_id, company_id, title, message, type, is_read, related_entity_type,
       related_entity_id, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  ),
  readNotificationsAbout: rowsStmt(
    `UPDATE notifications SET is_read = 1
     WHERE company_id = ? AND related_entity_type = ? AND related_entity_id = ? AND is_read = 0`,
  ),
  usersWithPermission: valueStmt<string>(
    `SELECT u.id FROM users u
     JOIN role_permissions rp ON rp.role_id = u.role_id JOIN permissions p ON p.id = rp.permission_id
     WHERE u.company_id = ? AND u.is_active = 1 AND p.name = ?`,
  ),
  activeUser: valueStmt<number>('SELECT 1 FROM users WHERE id = ? AND company_id = ? AND is_active = 1'),
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
    // Only with their project (deleteProject): neither is deleted on its own (sync/SPEC.md W15).
    communications: tombstone('communications'),
    change_orders: tombstone('change_orders'),
  },
  project: byId(schema.projects, 'projects'),
  task: byId(schema.tasks, 'tasks'),
  log: byId(schema.projectLogs, 'project_logs'),
  photo: byId(schema.photos, 'photos'),
  scheduleChange: byId(schema.scheduleChanges, 'schedule_changes'),
  objects: objectLookups(),
  // Photos the user may see waiting for these bytes (sync/SPEC.md B7); takes @sha, @company and @user.
  pendingPhotosOfBlob: (() => {
    const prepared = (scoped: boolean) =>
      prepare<typeof schema.photos.$inferSelect>(
        build
          .select()
          .from(schema.photos)
          .where(
            and(
              eq(schema.photos.sha256, sql.placeholder('sha')),
              eq(schema.photos.blobStatus, 'pending'),
              scopeSql(scopeWhere('photos', scoped, 'live'), 'placeholders'),
            ),
          )
          .prepare(),
      );
    return { company: prepared(false), assigned: prepared(true) };
  })(),
  /**
   * A live photo the user may see that names these bytes, a present one first (a hash is not a capability
   * either: bytes are reused or accepted only for a user who could read them).
   */
  photoOfBlob: (() => {
    type Row = { filename: string; mimeType: string | null; sizeBytes: number | null; blobStatus: string };
    const stmt = (scoped: boolean) =>
      rowsStmt<Row>(
        `SELECT filename, mime_type AS "mimeType", size_bytes AS "sizeBytes", blob_status AS "blobStatus"
         FROM photos WHERE photos.sha256 = @sha AND ${scopeWhere('photos', scoped, 'live')}
         ORDER BY blob_status = 'present' DESC LIMIT 1`,
      );
    return { company: stmt(false), assigned: stmt(true) };
  })(),
  liveScheduleChangesOfTask: valueStmt<string>(
    'SELECT id FROM schedule_changes WHERE task_id = ? AND company_id = ? AND deleted_at IS NULL',
  ),
};

/**
 * Who may read the bytes stored under a key (DESIGN.md section 6: bytes are as visible as the rows naming
 * them). All take @key, @company and @user.
 */
function objectLookups() {
  type Dialect = keyof typeof jsonArrayHas;
  /** A statement in both databases' SQL: `text` gets the dialect to spell a log's images in. */
  const stmt = <R>(mode: 'rows' | 'value', text: (d: Dialect) => string) =>
    (mode === 'rows' ? rowsStmt<R> : valueStmt<R>)(text('sqlite'), text('postgres'));
  const both = <R>(text: (scoped: boolean, d: Dialect) => string, mode: 'rows' | 'value') => ({
    company: stmt<R>(mode, (d) => text(false, d)),
    assigned: stmt<R>(mode, (d) => text(true, d)),
  });
  const logNames = (alias: string, d: Dialect) =>
    jsonArrayHas[d](`${alias}.images`, `'${OBJECT_URL_PREFIX}' || @key`);
  return {
    /** A live photo the user may see whose bytes are stored under the key and have arrived. */
    photo: both<{ mime: string | null }>(
      (scoped) =>
        `SELECT mime_type AS mime FROM photos WHERE photos.filename = @key AND photos.blob_status = 'present'
           AND ${scopeWhere('photos', scoped, 'live')} LIMIT 1`,
      'rows',
    ),
    /** A live log the user may see that shows the object. */
    log: both<number>(
      (scoped, d) =>
        `SELECT 1 FROM project_logs WHERE ${scopeWhere('project_logs', scoped, 'live')}
           AND ${logNames('project_logs', d)} LIMIT 1`,
      'value',
    ),
    /** Any row of the company naming the key, live or not: once one exists, rows decide, not the upload. */
    named: stmt<number>(
      'value',
      (d) => `SELECT 1 WHERE EXISTS (SELECT 1 FROM photos WHERE company_id = @company AND filename = @key)
         OR EXISTS (SELECT 1 FROM project_logs l WHERE l.company_id = @company AND ${logNames('l', d)})`,
    ),
    /** The uploader of a presigned upload of the company. */
    uploader: valueStmt<string | null>(
      'SELECT user_id FROM object_uploads WHERE key = @key AND company_id = @company',
    ),
    recordUpload: rowsStmt(
      `INSERT INTO object_uploads (key, company_id, user_id, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO NOTHING`,
    ),
  };
}

export type Statements = typeof statements;
