import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { migrate as pgMigrate } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as proxyDrizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import pg from 'pg';
import { openDb, schema, writeTx, type Db, type Schema } from './index.ts';
import { runAsync, runSync, type Op } from './op.ts';
import { pgConn, pgTextOf, pgValue, sqliteConn, type SqlConn } from './sql.ts';

/**
 * The seam under the data layer (ADR 027): data work is an `Op` (`op.ts`) written once, with SQLite's query
 * builder over the one schema definition and the plain SQL of `sql.ts`, run by either database. On SQLite
 * the query builder is better-sqlite3's and everything answers at once: a write transaction is synchronous
 * from BEGIN IMMEDIATE to COMMIT, as DESIGN.md section 4 requires. On PostgreSQL it is drizzle's SQLite proxy
 * over node-postgres, which runs the SQL drizzle builds (placeholders numbered), and rows are decoded by the
 * same column decoders, because the PostgreSQL tables keep SQLite's storage (`pg/schema.ts`).
 *
 * A write transaction holds the company's row lock on PostgreSQL (writers of one company queue, other
 * companies do not wait) and SQLite's one writer lock there. Reads outside a transaction see committed data.
 */
export type AnyDb = BaseSQLiteDatabase<'sync' | 'async', unknown, Schema>;
/** The proxy's database, for PostgreSQL. */
export type AsyncDb = SqliteRemoteDatabase<Schema>;

/** What an Op works with: the query builder and plain SQL of one connection or transaction. */
export interface Conn {
  db: AnyDb;
  sql: SqlConn;
}

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly dialect: Dialect;
  /** Runs `op` outside a write transaction (reads). */
  read<T>(op: (c: Conn) => Op<T>): Promise<T>;
  /** Runs `op` in one read-only transaction: every statement of it reads the same snapshot. */
  readTx<T>(op: (c: Conn) => Op<T>): Promise<T>;
  /**
   * Runs `op` in one write transaction, committed when it returns and rolled back when it throws. The
   * company's row is locked first on PostgreSQL (its versions are allocated in order, sync/SPEC.md W1).
   */
  writeTx<T>(companyId: string | null, op: (c: Conn) => Op<T>): Promise<T>;
  close(): Promise<void>;
}

const PG_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations-pg');

type Method = 'run' | 'all' | 'values' | 'get';
type Runner = (text: string, params: unknown[], method: Method) => Promise<{ rows: unknown[] }>;

const proxy = (run: Runner): AsyncDb => proxyDrizzle(run as never, { schema });

/** The query builder and plain SQL of the app's SQLite connection. */
export function connOf(db: Db): Conn {
  return { db, sql: sqliteConn(db.$client) };
}

/** SQLite through better-sqlite3: every statement answers at once, and so does every Op. */
export function sqliteDatabase(file: string): Database {
  const db = openDb(file);
  const conn = connOf(db);
  const settle = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err);
    }
  };
  return {
    dialect: 'sqlite',
    read: (op) => settle(() => runSync(op(conn))),
    readTx: (op) => settle(() => db.$client.transaction(() => runSync(op(conn))).deferred()),
    writeTx: (_companyId, op) => settle(() => writeTx(db, () => runSync(op(conn)))),
    close: async () => {
      db.$client.close();
    },
  };
}

// bigint (int8) and numeric come back as strings by default; every integer column here is a SQLite INTEGER
// that JavaScript reads as a number (`pg/schema.ts`), and sums of them are numeric.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** PostgreSQL statements: SQLite's placeholders numbered, booleans bound as SQLite binds them (0/1). */
function pgRunner(client: pg.Pool | pg.PoolClient): Runner {
  return async (text, params, method) => {
    const result = await client.query({
      text: pgTextOf(text).text,
      values: params.map(pgValue),
      rowMode: 'array',
    });
    const rows = result.rows as unknown[];
    return { rows: method === 'get' ? (rows[0] as unknown[]) : method === 'run' ? [] : rows };
  };
}

/** A pool that reads every integer column as a JavaScript number (see `types`). */
export function pgPool(url: string, max = 10): pg.Pool {
  return new pg.Pool({ connectionString: url, max, types });
}

/** Applies the committed PostgreSQL migrations; one process at a time (several API processes may start together). */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727271)');
    await pgMigrate(pgDrizzle(client), { migrationsFolder: PG_MIGRATIONS });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727271)').catch(() => undefined);
    client.release();
  }
}

export async function postgresDatabase(url: string, options: { max?: number } = {}): Promise<Database> {
  const pool = pgPool(url, options.max);
  await migratePostgres(pool);
  const outside: Conn = { db: proxy(pgRunner(pool)), sql: pgConn(pool) };
  return {
    dialect: 'postgres',
    read: (op) => runAsync(op(outside)),
    readTx: (op) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', null, op),
    writeTx: (companyId, op) => inTransaction('BEGIN', companyId, op),
    close: () => pool.end(),
  };

  async function inTransaction<T>(begin: string, companyId: string | null, op: (c: Conn) => Op<T>) {
    const client = await pool.connect();
    try {
      await client.query(begin);
      if (companyId !== null) {
        await client.query('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
      }
      const result = await runAsync(op({ db: proxy(pgRunner(client)), sql: pgConn(client) }));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
