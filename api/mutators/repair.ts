import type { SessionUser } from '../context.ts';
import type { Database } from '../db/database.ts';
import { io } from '../db/op.ts';
import { rowsStmt } from '../db/sql.ts';
import { restContext } from './core.ts';
import { deleteProjectContents } from './projects.ts';

/**
 * Deleted projects that still have live rows hanging off them, with who deleted them. Before communications
 * and change orders went with their project (commit e1a245c), deleting one left them live: in every feed
 * with no project name, Approve and Reject always failing, approvers with an unread "Change order to review".
 */
const LEFT_BEHIND = rowsStmt<{ id: string; companyId: string; deletedBy: string | null }>(
  `SELECT p.id, p.company_id AS "companyId", p.updated_by AS "deletedBy" FROM projects p
   WHERE p.deleted_at IS NOT NULL AND p.id IN (
     SELECT project_id FROM communications WHERE deleted_at IS NULL
     UNION SELECT project_id FROM change_orders WHERE deleted_at IS NULL
     UNION SELECT project_id FROM tasks WHERE deleted_at IS NULL
     UNION SELECT project_id FROM project_logs WHERE deleted_at IS NULL
     UNION SELECT project_id FROM photos WHERE deleted_at IS NULL)
   ORDER BY p.company_id, p.id`,
);

/**
 * Unread notifications about schedule changes already deleted: before deleting a task or project settled
 * them, approvers kept "Schedule change requested" about a request nobody can decide any more.
 */
const UNSETTLED_WHERE = `WHERE is_read = 0 AND related_entity_type = 'schedule_change'
     AND related_entity_id IN (SELECT id FROM schedule_changes WHERE deleted_at IS NOT NULL)`;
const UNSETTLED = rowsStmt<{ n: number }>(`SELECT count(*) AS n FROM notifications ${UNSETTLED_WHERE}`);
const SETTLE = rowsStmt(`UPDATE notifications SET is_read = 1 ${UNSETTLED_WHERE}`);

/** Who a repair acts as: the person who deleted the project (its tombstone's `updated_by`), holding nothing. */
function deleter(companyId: string, userId: string | null): SessionUser {
  return {
    id: userId ?? 'server',
    email: '',
    firstName: null,
    lastName: null,
    name: null,
    role: 'admin',
    roleId: null,
    companyId,
    companyName: '',
    companyTimeZone: 'UTC',
    mustChangePassword: false,
    permissions: new Set(),
    sessionId: 'repair',
  };
}

/**
 * Run at every server start: deletes what a deleted project left behind, by the rule `deleteProject` uses
 * (`deleteProjectContents`, sync/SPEC.md W21), so devices delete those rows on their next pull and the
 * notifications about them are settled, with those about schedule changes deleted before that rule settled
 * them. Idempotent: a database with nothing left behind is only read.
 * Returns how many projects it repaired.
 */
export async function repairDeletedProjects(database: Database, now: Date = new Date()): Promise<number> {
  const projects = await database.read((c) => io(c.sql.all(LEFT_BEHIND)));
  for (const p of projects) {
    await database.writeTx(p.companyId, (conn) =>
      deleteProjectContents(restContext(conn, deleter(p.companyId, p.deletedBy), now), p.id),
    );
  }
  const [unsettled] = await database.read((c) => io(c.sql.all(UNSETTLED)));
  if (Number(unsettled?.n ?? 0) > 0) await database.writeTx(null, (c) => io(c.sql.run(SETTLE)));
  return projects.length;
}
