import { mirrorTable, type OutboxEntry, type SyncDb, type SyncIssue } from './db.ts';
import { LocalWriteError, mutate } from './mutate.ts';

/** The field that names a record, per synced table (a photo is named by its description). */
export const NAME_FIELD: Readonly<Record<string, string>> = {
  projects: 'name',
  tasks: 'title',
  project_logs: 'title',
  photos: 'description',
  schedule_changes: 'reason',
  communications: 'subject',
  change_orders: 'title',
};

/** A record's name as the user knows it, from a row of its table, or null (at most 80 characters). */
export function nameOfRecord(table: string, row: Record<string, unknown> | undefined): string | null {
  const key = NAME_FIELD[table];
  const v = key ? row?.[key] : undefined;
  return typeof v === 'string' && v.trim() ? v.trim().slice(0, 80) : null;
}

/**
 * The "Sync issues" list (SPEC C5), oldest first. Small by nature (one entry per refused change), so it
 * is read whole.
 */
export function listIssues(db: SyncDb): Promise<SyncIssue[]> {
  return db.syncIssues.orderBy('createdAt').toArray();
}

/**
 * Sends a refused change again and removes it from the list, in one transaction. `data` replaces the
 * mutation's fields (the user's fix); without it the change goes as it was. A refused patch or delete of a
 * row that is no longer on the device cannot be retried (LocalWriteError NOT_FOUND); discard it instead.
 * A conflict entry is retried as a new patch with the values that lost; a refused photo upload is queued
 * on the photo lane again.
 */
export async function retryIssue(
  db: SyncDb,
  issueId: number,
  data?: Record<string, unknown>,
): Promise<OutboxEntry | null> {
  const issue = await db.syncIssues.get(issueId);
  if (!issue) throw new LocalWriteError(`Sync issue ${issueId} is gone`, 'NOT_FOUND');
  if (issue.kind === 'blob') {
    await db.transaction('rw', db.blobs, db.syncIssues, async () => {
      if (issue.sha256)
        await db.blobs.update(issue.sha256, { status: 'pending', attempts: 0, nextAttemptAt: 0 });
      await db.syncIssues.delete(issueId);
    });
    return null;
  }
  const m = issue.mutation;
  if (!m) throw new LocalWriteError(`Sync issue ${issueId} has no change to retry`, 'INVALID');
  const fields =
    data ??
    (issue.kind === 'conflict'
      ? Object.fromEntries((issue.conflicts ?? []).map((c) => [c.field, c.yours]))
      : m.data);
  const op = issue.kind === 'conflict' ? 'patch' : m.op;
  return db.transaction(
    'rw',
    [mirrorTable(db, m.table), db.outbox, db.shadows, db.meta, db.syncIssues],
    async () => {
      const entry = await mutate(db, m.table, op, m.rowId, fields);
      await db.syncIssues.delete(issueId);
      return entry;
    },
  );
}

/**
 * Drops an entry from the list: the user gives the change up. Photo bytes that no photo row on the device
 * points at any more are dropped with it.
 */
export async function discardIssue(db: SyncDb, issueId: number): Promise<void> {
  await db.transaction('rw', db.syncIssues, db.blobs, db.photos, async () => {
    const issue = await db.syncIssues.get(issueId);
    if (!issue) return;
    await db.syncIssues.delete(issueId);
    const sha = issue.sha256 ?? (issue.mutation?.table === 'photos' ? issue.mutation.data.sha256 : undefined);
    if (typeof sha !== 'string') return;
    const stillUsed = await db.photos.where('sha256').equals(sha).count();
    const blob = await db.blobs.get(sha);
    if (blob && stillUsed === 0 && blob.status !== 'uploaded') await db.blobs.delete(sha);
  });
}
