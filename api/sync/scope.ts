import crypto from 'node:crypto';
import { PULLED_TABLES, type PulledTable } from '#shared/sync-protocol.ts';
import type { SessionUser } from '../context.ts';
import { io, type Op } from '../db/op.ts';
import { valueStmt, type SqlConn } from '../db/sql.ts';
import { ASSIGNED_PROJECTS, isScopedToAssignments, seesFinance } from '../db/scope.ts';
import { READ_PERMISSION } from './tables.ts';

/**
 * What a user's devices mirror (sync/SPEC.md L6): the tables the role may read, each filtered by the one
 * scope rule of `api/db/scope.ts` (mode `all`: tombstones travel in the scope their rows had).
 */
const ASSIGNED = ASSIGNED_PROJECTS;

export function readableTables(user: SessionUser): PulledTable[] {
  return PULLED_TABLES.filter((t) => user.permissions.has(READ_PERMISSION[t]));
}

const ASSIGNED_LIST = valueStmt<string>(`${ASSIGNED} ORDER BY project_id`);
// Tombstoned tasks count too: deleting one changes nothing a tombstone would not tell the device.
const ASSIGNED_OUTSIDE = valueStmt<string>(
  `SELECT id FROM tasks WHERE company_id = @company AND assignee_id = @user
     AND (project_id IS NULL OR project_id NOT IN (${ASSIGNED})) ORDER BY id`,
);

/**
 * A fingerprint of everything that decides which rows the user's devices hold (SPEC L9): role, readable
 * tables, the device's sync schema, whether it may read projects' money (sent as null otherwise) and, for
 * a subcontractor, its assigned projects and the tasks assigned to it outside them. When it changes, rows
 * may have entered or left the scope without a version of their own changing, so a device must download
 * again. The schema counts because an app skips the tables it does
 * not know yet (SPEC P15): once updated, it must fetch the rows it passed over.
 */
export function* scopeFingerprint(c: SqlConn, user: SessionUser, schemaVersion: number): Op<string> {
  const parts: unknown[] = [user.role, readableTables(user), schemaVersion];
  // Only when withheld, so the fingerprints of the readers who see it (and their devices) stay as they were.
  if (!seesFinance(user)) parts.push('no-finance');
  if (isScopedToAssignments(user)) {
    const params = { company: user.companyId, user: user.id };
    parts.push(yield* io(c.all(ASSIGNED_LIST, params)), yield* io(c.all(ASSIGNED_OUTSIDE, params)));
  }
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}
