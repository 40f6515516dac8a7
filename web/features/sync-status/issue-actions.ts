import type { SyncDb, SyncIssue } from '#sync/db.ts';
import { notifyLocalWrite } from '#sync/hub.ts';
import { mutate } from '#sync/mutate.ts';

/**
 * Re-queues a rejected change with the user's edited fields through the sync module's `mutate` (a new
 * mutation with the next id), then removes the issue. A patch of a row that is gone from the device fails
 * with the sync module's NOT_FOUND error and the issue stays.
 */
export async function retryIssue(db: SyncDb, issue: SyncIssue, data: Record<string, unknown>): Promise<void> {
  const m = issue.mutation;
  if (!m || issue.id === undefined) throw new Error('This issue cannot be retried');
  await mutate(db, m.table, m.op, m.rowId, m.op === 'delete' ? {} : data);
  await db.syncIssues.delete(issue.id);
  notifyLocalWrite(db);
}

/** Drops an issue: the change it holds is given up (after the user confirmed). */
export async function discardIssue(db: SyncDb, issue: SyncIssue): Promise<void> {
  if (issue.id === undefined) return;
  await db.syncIssues.delete(issue.id);
  // Lets the engine recount its status (issues) at once.
  notifyLocalWrite(db);
}
