import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { PULLED_TABLES, type PulledTable } from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { ASSIGNED_PROJECTS, isScopedToAssignments } from '../db/scope.ts';
import { READ_PERMISSION } from './tables.ts';

/**
 * What a user's devices mirror (sync/SPEC.md L6): the tables the role may read, each filtered by the one
 * scope rule of `api/db/scope.ts` (mode `all`: tombstones travel in the scope their rows had).
 */
const ASSIGNED = ASSIGNED_PROJECTS;

export function readableTables(user: SessionUser): PulledTable[] {
  return PULLED_TABLES.filter((t) => user.permissions.has(READ_PERMISSION[t]));
}

function prepareStatements(sqlite: Database.Database) {
  return {
    assigned: sqlite
      .prepare<{ company: string; user: string }, string>(`${ASSIGNED} ORDER BY project_id`)
      .pluck(),
    // Tombstoned tasks count too: deleting one changes nothing a tombstone would not tell the device.
    assignedOutside: sqlite
      .prepare<{ company: string; user: string }, string>(
        `SELECT id FROM tasks WHERE company_id = @company AND assignee_id = @user
           AND (project_id IS NULL OR project_id NOT IN (${ASSIGNED})) ORDER BY id`,
      )
      .pluck(),
  };
}

const statementCache = new WeakMap<Database.Database, ReturnType<typeof prepareStatements>>();

/**
 * A fingerprint of everything that decides which rows the user's devices hold (SPEC L9): role, readable
 * tables, the device's sync schema and, for a subcontractor, its assigned projects and the tasks assigned
 * to it outside them. When it changes, rows may have entered or left the scope without a version of their
 * own changing, so a device must download again. The schema counts because an app skips the tables it does
 * not know yet (SPEC P15): once updated, it must fetch the rows it passed over.
 */
export function scopeFingerprint(db: Db, user: SessionUser, schemaVersion: number): string {
  const parts: unknown[] = [user.role, readableTables(user), schemaVersion];
  if (isScopedToAssignments(user)) {
    let s = statementCache.get(db.$client);
    if (!s) statementCache.set(db.$client, (s = prepareStatements(db.$client)));
    const params = { company: user.companyId, user: user.id };
    parts.push(s.assigned.all(params), s.assignedOutside.all(params));
  }
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}
