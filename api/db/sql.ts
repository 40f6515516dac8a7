import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { io, type Op } from './op.ts';

/**
 * Plain SQL statements for both databases (ADR 027), for what the query builder does not say or says too
 * slowly on a hot path (DESIGN.md section 12). Written once, in the SQL both databases speak, with SQLite's
 * parameters: `?` in order, or `@name` bound from an object. SQLite prepares each statement once per
 * connection; PostgreSQL gets the placeholders numbered.
 */
export interface Stmt<R = unknown> {
  readonly text: string;
  /** Rows as objects keyed by column name, the first column's value alone, or rows as arrays. */
  readonly mode: 'rows' | 'value' | 'raw';
  /** PostgreSQL's text where the databases' SQL differs (`jsonArrayHas`). */
  readonly postgres?: string;
  /** Phantom: the row (or value) type. */
  readonly _row?: R;
}

/** A statement of rows of type R (objects keyed by column name). */
export const rowsStmt = <R>(text: string, postgres?: string): Stmt<R> => ({ text, mode: 'rows', postgres });
/** A statement answering the first column's value. */
export const valueStmt = <V>(text: string, postgres?: string): Stmt<V> => ({ text, mode: 'value', postgres });
/** A statement answering rows as arrays of column values, in the statement's column order. */
export const rawStmt = (text: string): Stmt<unknown[]> => ({ text, mode: 'raw' });

export type Params = readonly unknown[] | Readonly<Record<string, unknown>>;

/** One connection or transaction: each call answers at once (SQLite) or with a promise (PostgreSQL). */
export interface SqlConn {
  readonly dialect: 'sqlite' | 'postgres';
  get<R>(s: Stmt<R>, params?: Params): R | undefined | Promise<R | undefined>;
  all<R>(s: Stmt<R>, params?: Params): R[] | Promise<R[]>;
  /** Runs it; the number of rows it wrote. */
  run(s: Stmt, params?: Params): number | Promise<number>;
}

const sqliteConns = new WeakMap<BetterSqlite3.Database, SqlConn>();

/** SQLite through better-sqlite3: statements prepared once per connection, answering synchronously. */
export function sqliteConn(sqlite: BetterSqlite3.Database): SqlConn {
  let conn = sqliteConns.get(sqlite);
  if (!conn) sqliteConns.set(sqlite, (conn = newSqliteConn(sqlite)));
  return conn;
}

function newSqliteConn(sqlite: BetterSqlite3.Database): SqlConn {
  const prepared = new WeakMap<Stmt, BetterSqlite3.Statement>();
  const statement = (s: Stmt) => {
    let stmt = prepared.get(s);
    if (!stmt) {
      stmt = sqlite.prepare(s.text);
      if (s.mode === 'value' && stmt.reader) stmt.pluck(true);
      if (s.mode === 'raw' && stmt.reader) stmt.raw(true);
      prepared.set(s, stmt);
    }
    return stmt;
  };
  const bind = (params: Params | undefined): unknown[] =>
    params === undefined ? [] : Array.isArray(params) ? params : [params];
  return {
    dialect: 'sqlite',
    get: <R>(s: Stmt<R>, params?: Params) => statement(s).get(...bind(params)) as R | undefined,
    all: <R>(s: Stmt<R>, params?: Params) => statement(s).all(...bind(params)) as R[],
    run: (s, params) => statement(s).run(...bind(params)).changes,
  };
}

interface PgText {
  text: string;
  /** For `@name` parameters: the name of each `$n`, in order. */
  names: string[] | null;
}

/**
 * SQL where the two databases differ, for a statement's two texts: `value` is an element of the JSON array of
 * text stored in `column`.
 */
export const jsonArrayHas = {
  sqlite: (column: string, value: string) =>
    `EXISTS (SELECT 1 FROM json_each(${column}) j WHERE j.value = ${value})`,
  postgres: (column: string, value: string) =>
    `EXISTS (SELECT 1 FROM jsonb_array_elements_text(${column}::jsonb) j(value) WHERE j.value = ${value})`,
};

/** SQLite's `?` and `@name` parameters as PostgreSQL's `$1, $2, ...`, leaving quoted text alone. */
export function toPgText(text: string): PgText {
  let out = '';
  let n = 0;
  const names: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') out += `$${++n}`;
    else if (ch === '@' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))![0];
      let at = names.indexOf(name);
      if (at < 0) at = names.push(name) - 1;
      out += `$${at + 1}`;
      i += name.length;
    } else out += ch;
  }
  if (n > 0 && names.length > 0) throw new Error('A statement mixes ? and @name parameters');
  // SQLite's query builder names an upsert's conflict target with its table ("roles"."id"); PostgreSQL
  // takes only the column there.
  out = out.replace(
    /on conflict \(([^)]*)\)/gi,
    (_m, target: string) => `on conflict (${target.replace(/"[^"]+"\./g, '')})`,
  );
  return { text: out, names: names.length > 0 ? names : null };
}

// Numbered once per SQL text for the whole process: connections (and the query builder's statements, whose
// text is built again on every call) share it. Bounded: a few texts are built per call (IN lists).
const pgTexts = new LRUCache<string, PgText>({ max: 2000 });

/** `toPgText`, remembered per text. */
export function pgTextOf(text: string): PgText {
  let t = pgTexts.get(text);
  if (!t) pgTexts.set(text, (t = toPgText(text)));
  return t;
}

/** A value as SQLite binds it: booleans are 0 and 1 there. */
export const pgValue = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/** PostgreSQL through node-postgres: a pool (outside a transaction) or the transaction's own client. */
export function pgConn(client: pg.Pool | pg.PoolClient): SqlConn {
  const query = async (s: Stmt, params: Params | undefined) => {
    const t = pgTextOf(s.postgres ?? s.text);
    const values = t.names
      ? t.names.map((name) => pgValue((params as Record<string, unknown>)[name]))
      : ((params as unknown[] | undefined) ?? []).map(pgValue);
    return s.mode !== 'rows'
      ? client.query({ text: t.text, values, rowMode: 'array' })
      : client.query({ text: t.text, values });
  };
  const first = (s: Stmt, row: unknown) =>
    s.mode === 'value' && row !== undefined ? (row as unknown[])[0] : row;
  return {
    dialect: 'postgres',
    get: async <R>(s: Stmt<R>, params?: Params) =>
      first(s, (await query(s, params)).rows[0]) as R | undefined,
    all: async <R>(s: Stmt<R>, params?: Params) =>
      (await query(s, params)).rows.map((r: unknown) => first(s, r)) as R[],
    run: async (s, params) => (await query(s, params)).rowCount ?? 0,
  };
}

// One name for every savepoint: both databases resolve a name to the most recent savepoint that has it,
// and savepoints nest, so a nested one shadows its parent until it is released.
const SAVEPOINT = rowsStmt('SAVEPOINT sp');
const RELEASE = rowsStmt('RELEASE SAVEPOINT sp');
const ROLLBACK_TO = rowsStmt('ROLLBACK TO SAVEPOINT sp');

/**
 * Runs `body` in a savepoint of the current transaction: when it throws, its writes are undone, the
 * transaction goes on, and the error is thrown on (sync/SPEC.md P8).
 */
export function* savepoint<T>(conn: SqlConn, body: () => Op<T>): Op<T> {
  yield* io(conn.run(SAVEPOINT));
  try {
    const result = yield* body();
    yield* io(conn.run(RELEASE));
    return result;
  } catch (err) {
    yield* io(conn.run(ROLLBACK_TO));
    yield* io(conn.run(RELEASE));
    throw err;
  }
}
