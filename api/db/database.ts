import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { sql as drizzleSql } from 'drizzle-orm';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { migrate as pgMigrate } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as proxyDrizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { openDb, schema, type Schema } from './index.ts';

/**
 * The async seam under the data layer (ADR 027): one drizzle database, built with SQLite's query builder and
 * the one schema definition, that runs on embedded SQLite or on PostgreSQL. Queries are written once; each
 * backend runs the SQL drizzle builds (PostgreSQL after its `?` placeholders are numbered), and rows are
 * decoded by the same column decoders, because the PostgreSQL tables keep SQLite's storage (`pg/schema.ts`).
 *
 * Writes go through `writeTx`, one transaction per request or push batch, holding the company's row lock on
 * PostgreSQL (writers of one company queue, other companies do not wait) and SQLite's single writer lock
 * there. Statements on `db` outside a transaction see only committed data on both.
 */
export type AsyncDb = SqliteRemoteDatabase<Schema>;

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly dialect: Dialect;
  /** For statements outside a write transaction. */
  readonly db: AsyncDb;
  /**
   * Runs `fn` in one write transaction, committed when it resolves and rolled back when it throws. The
   * company's row is locked first on PostgreSQL (its versions are allocated in order, SPEC W1).
   */
  writeTx<T>(companyId: string | null, fn: (tx: AsyncDb) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in a savepoint of the transaction `tx`: when it throws, its writes are undone and the
   * transaction goes on (sync/SPEC.md P8).
   */
  savepoint<T>(tx: AsyncDb, fn: () => Promise<T>): Promise<T>;
  /** Rows of a plain SQL statement, as objects keyed by column name (`?` placeholders). */
  rows<R>(on: AsyncDb, text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

const PG_MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations-pg');

type Method = 'run' | 'all' | 'values' | 'get';
type Runner = (text: string, params: unknown[], method: Method) => Promise<{ rows: unknown[] }>;

/** Numbers SQLite's `?` placeholders as PostgreSQL's `$1, $2, ...`, leaving quoted text alone. */
export function numberPlaceholders(text: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') out += `$${++n}`;
    else out += ch;
  }
  return out;
}

const proxy = (run: Runner): AsyncDb => proxyDrizzle(run as never, { schema });

/** A FIFO lock: the SQLite connection's one writer at a time, and reads kept out of an open transaction. */
class Lock {
  private tail: Promise<void> = Promise.resolve();
  held = false;

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise((r) => (release = r));
    await previous;
    this.held = true;
    try {
      return await fn();
    } finally {
      this.held = false;
      release();
    }
  }

  /** Resolves once no transaction is open. */
  async idle(): Promise<void> {
    while (this.held) await this.tail;
  }
}

let savepoints = 0;

async function inSavepoint<T>(tx: AsyncDb, fn: () => Promise<T>): Promise<T> {
  const name = `sp${++savepoints}`;
  await tx.run(drizzleSql.raw(`SAVEPOINT ${name}`));
  try {
    const result = await fn();
    await tx.run(drizzleSql.raw(`RELEASE SAVEPOINT ${name}`));
    return result;
  } catch (err) {
    await tx.run(drizzleSql.raw(`ROLLBACK TO SAVEPOINT ${name}`));
    await tx.run(drizzleSql.raw(`RELEASE SAVEPOINT ${name}`));
    throw err;
  }
}

/** SQLite through better-sqlite3: the statements run synchronously behind the seam's promises. */
export function sqliteDatabase(file: string): Database {
  const sqlite = openDb(file).$client;
  // Bounded: statements are keyed by their SQL text, and a few are built per call (IN lists).
  const prepared = new LRUCache<string, BetterSqlite3.Statement>({ max: 500 });
  const statement = (text: string) => {
    let stmt = prepared.get(text);
    if (!stmt) prepared.set(text, (stmt = sqlite.prepare(text)));
    return stmt;
  };
  const execute = (text: string, params: unknown[], method: Method) => {
    const stmt = statement(text);
    if (method === 'run' || !stmt.reader) {
      stmt.run(...params);
      return { rows: [] };
    }
    stmt.raw(true);
    return { rows: method === 'get' ? (stmt.get(...params) as unknown[]) : stmt.all(...params) };
  };
  const lock = new Lock();
  const outside = proxy(async (text, params, method) => {
    if (lock.held) await lock.idle();
    return execute(text, params, method);
  });
  const inside = proxy(async (text, params, method) => execute(text, params, method));
  const objects = (text: string, params: unknown[]) => {
    const stmt = statement(text);
    stmt.raw(false);
    return stmt.all(...params);
  };
  return {
    dialect: 'sqlite',
    db: outside,
    writeTx: (_companyId, fn) =>
      lock.run(async () => {
        sqlite.prepare('BEGIN IMMEDIATE').run();
        try {
          const result = await fn(inside);
          sqlite.prepare('COMMIT').run();
          return result;
        } catch (err) {
          if (sqlite.inTransaction) sqlite.prepare('ROLLBACK').run();
          throw err;
        }
      }),
    savepoint: inSavepoint,
    async rows<R>(on: AsyncDb, text: string, params: unknown[] = []) {
      if (on === outside && lock.held) await lock.idle();
      return objects(text, params) as R[];
    },
    async close() {
      await lock.idle();
      sqlite.close();
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
    const values = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
    const result = await client.query({
      text: numberPlaceholders(text),
      values,
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
  const db = proxy(pgRunner(pool));
  const clients = new WeakMap<AsyncDb, pg.Pool | pg.PoolClient>([[db, pool]]);
  return {
    dialect: 'postgres',
    db,
    async writeTx(companyId, fn) {
      const conn = await pool.connect();
      const tx = proxy(pgRunner(conn));
      clients.set(tx, conn);
      try {
        await conn.query('BEGIN');
        if (companyId !== null)
          await conn.query('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
        const result = await fn(tx);
        await conn.query('COMMIT');
        return result;
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        conn.release();
      }
    },
    savepoint: inSavepoint,
    async rows<R>(on: AsyncDb, text: string, params: unknown[] = []) {
      const client = clients.get(on) ?? pool;
      const values = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
      return (await client.query(numberPlaceholders(text), values)).rows as R[];
    },
    close: () => pool.end(),
  };
}

/** `DATABASE_URL=postgres://...` opens PostgreSQL; anything else is an SQLite file path. */
export function openDatabase(target: string): Promise<Database> {
  return /^postgres(ql)?:\/\//.test(target)
    ? postgresDatabase(target)
    : Promise.resolve(sqliteDatabase(target));
}
