import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = BetterSQLite3Database<Schema> & { $client: Database.Database };

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Pragmas for every open (DESIGN.md sections 4 and 12): better-sqlite3 reports synchronous=FULL on a fresh
 * WAL database but NORMAL after reopening it, so each one is set explicitly every time.
 */
export function applyPragmas(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A push runs its mutations in savepoints (sync/SPEC.md P6, P8), and SQLite keeps a savepoint's undo
  // pages in a statement journal, which spills to a temp file past 64 KiB (a group of mutations, a project
  // delete's tombstones) unless temp storage is memory. The journal lives only until the release, so a
  // file buys nothing but syscalls (ADR 020, round 4).
  sqlite.pragma('temp_store = MEMORY');
}

/** Opens (creating if needed) the database file, applies the pragmas and the committed migrations. */
export function openDb(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  applyPragmas(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS });
  return db;
}

/**
 * Runs `fn` in a BEGIN IMMEDIATE transaction: a DEFERRED transaction that upgrades to a write gets
 * SQLITE_BUSY at once, ignoring busy_timeout. `fn` must be synchronous: an async body would commit before
 * its awaits resolve.
 */
export function writeTx<T>(db: Db, fn: () => T): T {
  const run = db.$client.transaction(fn);
  return run.immediate();
}

export { schema };
