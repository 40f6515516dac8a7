import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { migrate as pgMigrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
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
  /** False once `close` has begun: timers and pokes that outlive the server skip their work. */
  readonly open: boolean;
  /** Runs `op` outside a write transaction (reads). */
  read<T>(op: (c: Conn) => Op<T>): Promise<T>;
  /** Runs `op` in one read-only transaction: every statement of it reads the same snapshot. */
  readTx<T>(op: (c: Conn) => Op<T>): Promise<T>;
  /**
   * Runs `op` in one write transaction, committed when it returns and rolled back when it throws. The
   * company's row is locked first on PostgreSQL (its versions are allocated in order, sync/SPEC.md W1).
   */
  writeTx<T>(companyId: string | null, op: (c: Conn) => Op<T>): Promise<T>;
  /**
   * Tells the other API processes on this database that a company's data changed (sync/SPEC.md L10): a
   * NOTIFY on PostgreSQL, where several processes may serve one company; nothing on SQLite (one process).
   */
  announce(companyId: string): void;
  /**
   * Calls `listener` with each company another process announced; resolves, with the unsubscribe function,
   * once announcements are being heard (or could not be: the listeners' polls still see every change).
   */
  onAnnounce(listener: (companyId: string) => void): Promise<() => void>;
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

const sqliteDatabases = new WeakMap<Db, Database>();

/**
 * SQLite through better-sqlite3 (an open `Db`; one `Database` per connection): every statement answers at
 * once, and so does every Op, so a write transaction runs from BEGIN IMMEDIATE to COMMIT with nothing else
 * in between. The promise only hands the answer over.
 */
export function sqliteDatabase(db: Db): Database {
  const known = sqliteDatabases.get(db);
  if (known) return known;
  const conn = connOf(db);
  const settle = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const database: Database = {
    dialect: 'sqlite',
    get open() {
      return db.$client.open;
    },
    read: (op) => settle(() => runSync(op(conn))),
    readTx: (op) => settle(() => db.$client.transaction(() => runSync(op(conn))).deferred()),
    writeTx: (_companyId, op) => settle(() => writeTx(db, () => runSync(op(conn)))),
    announce: () => undefined,
    onAnnounce: () => Promise.resolve(() => undefined),
    close: async () => {
      if (db.$client.open) db.$client.close();
    },
  };
  sqliteDatabases.set(db, database);
  return database;
}

/** Opens (creating and migrating) an SQLite file behind the seam. */
export const openSqliteDatabase = (file: string): Database => sqliteDatabase(openDb(file));

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

/**
 * How long a statement waits for a row lock (the company's, held by another writer) before it fails with
 * 55P03, which push answers as 503 with Retry-After (SPEC P9), as SQLite's busy_timeout does.
 */
export const LOCK_TIMEOUT_MS = 5000;
/** How long a new PostgreSQL connection may take to be ready. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** A pool that reads every integer column as a JavaScript number (see `types`). */
export function pgPool(url: string, max = 10, lockTimeoutMs = LOCK_TIMEOUT_MS): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    // Set once per connection at its start, not per transaction: no extra round trip.
    options: `-c lock_timeout=${lockTimeoutMs}`,
    // A server that accepts the connection and never answers (half-open, hung) fails the request, or the
    // start, instead of holding it for ever.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A connection that drops (PostgreSQL restarted, a backend ended by an admin, an idle connection cut by a
  // proxy) emits 'error': an idle one through the pool, one in use on its client. Unheard, either event
  // ends the process. The pool discards such a connection; the request that was using it fails (its query
  // rejects) and the next one gets a new connection.
  pool.on('error', (err) => console.error(`database connection lost: ${err.message}`));
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** A database's answer that another writer held the lock for too long (SQLite or PostgreSQL). */
export const isBusy = (err: unknown): boolean => {
  if (typeof err !== 'object' || err === null) return false;
  const code = String((err as { code?: unknown }).code);
  // The query builder's errors carry the driver's as their cause.
  return code.startsWith('SQLITE_BUSY') || code === '55P03' || isBusy((err as { cause?: unknown }).cause);
};

/**
 * Runs `fn` holding the start-up lock, so that of several API processes starting together one at a time
 * migrates and seeds. It waits as long as that takes: the connections' lock_timeout is for writers kept
 * waiting by a company's row, not for this.
 */
async function whileStarting<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SET lock_timeout = 0');
    await client.query('SELECT pg_advisory_lock(727271)');
    return await fn(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock(727271)').catch(() => undefined);
    await client.query('RESET lock_timeout').catch(() => undefined);
    client.release();
  }
}

/** Applies the committed PostgreSQL migrations, one process at a time (see `whileStarting`). */
export function migratePostgres(pool: pg.Pool): Promise<void> {
  return whileStarting(pool, (client) => pgMigrate(pgDrizzle(client), { migrationsFolder: PG_MIGRATIONS }));
}

/**
 * Applies the migrations the database lacks inside the caller's open transaction, keeping drizzle's record
 * of them (`drizzle.__drizzle_migrations`, as its migrator does), so that a rollback takes them back with
 * everything else: `db:copy --dry-run` checks a copy into a database never set up and leaves it as it
 * was. (Drizzle's migrator commits its own transaction, so it cannot run inside another.)
 */
export async function migratePostgresWithin(client: pg.PoolClient): Promise<void> {
  await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
  await client.query(
    'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  const last = await client.query<{ created_at: string }>(
    'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
  );
  const appliedUpTo = last.rows[0] ? Number(last.rows[0].created_at) : -1;
  for (const migration of readMigrationFiles({ migrationsFolder: PG_MIGRATIONS })) {
    if (migration.folderMillis <= appliedUpTo) continue;
    for (const statement of migration.sql) await client.query(statement);
    await client.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [
      migration.hash,
      migration.folderMillis,
    ]);
  }
}

/** The NOTIFY channel of sync pokes between API processes. */
const POKE_CHANNEL = 'sitecommand_sync';

/**
 * The server's PostgreSQL: migrated, then `prepare` run (the server's upserts and demo seed, api/db/pg/
 * bootstrap.ts), both under the start-up lock, so processes starting together do it one after the other.
 */
export async function postgresDatabase(
  url: string,
  options: { max?: number; lockTimeoutMs?: number; prepare?: (database: Database) => Promise<void> } = {},
): Promise<Database> {
  const pool = pgPool(url, options.max, options.lockTimeoutMs);
  const outside: Conn = { db: proxy(pgRunner(pool)), sql: pgConn(pool) };
  let open = true;
  const listeners = new Set<(companyId: string) => void>();
  let listening: Promise<pg.Client | undefined> | undefined;
  const database: Database = {
    dialect: 'postgres',
    get open() {
      return open;
    },
    read: (op) => runAsync(op(outside)),
    readTx: (op) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', null, op),
    writeTx: (companyId, op) => inTransaction('BEGIN', companyId, op),
    announce: (companyId) => {
      if (!open) return;
      pool.query(`SELECT pg_notify('${POKE_CHANNEL}', $1)`, [companyId]).catch((err: unknown) => {
        // A lost poke costs the other processes' listeners at most one poll interval (events.ts).
        if (open) console.error(`sync poke not sent: ${err instanceof Error ? err.message : String(err)}`);
      });
    },
    onAnnounce: async (listener) => {
      listeners.add(listener);
      await (listening ??= listen());
      return () => listeners.delete(listener);
    },
    close: async () => {
      open = false;
      if (listening) await (await listening)?.end().catch(() => undefined);
      await pool.end();
    },
  };
  try {
    await whileStarting(pool, async (client) => {
      await pgMigrate(pgDrizzle(client), { migrationsFolder: PG_MIGRATIONS });
      await options.prepare?.(database);
    });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  return database;

  /** One connection per process LISTENs for the others' pokes; it reconnects when it drops. */
  async function listen(): Promise<pg.Client | undefined> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('notification', (n) => {
      if (n.channel === POKE_CHANNEL && n.payload) for (const l of listeners) l(n.payload);
    });
    client.on('error', () => {
      // The connection dropped (a restart of PostgreSQL): listen again on a new one, while the pool is open.
      // Until then the listeners' polls (events.ts) still see every change.
      listening = undefined;
      client.end().catch(() => undefined);
      if (open && listeners.size > 0) setTimeout(() => (listening ??= listen()), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${POKE_CHANNEL}`);
      return client;
    } catch (err) {
      client.emit('error', err);
      return undefined;
    }
  }

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
