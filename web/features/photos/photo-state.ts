import { useLiveQuery } from '#web/lib/live-query.ts';
import { useSyncExternalStore } from 'react';
import type { PhotoRow, SyncDb, SyncIssue } from '#sync/db.ts';
import { notifyLocalWrite } from '#sync/hub.ts';
import { mutate } from '#sync/mutate.ts';
import { uploadProgress } from '#sync/photo-lane.ts';

/**
 * Where a photo's bytes are (issue 11): still only on this device, going up (with the share sent), on the
 * server, or refused by it (with the reason). A photo another device took whose bytes have not arrived yet
 * is 'elsewhere'.
 */
export type PhotoState =
  | { kind: 'on-device' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'uploaded' }
  | { kind: 'refused'; reason: string; sha256: string }
  | { kind: 'elsewhere' };

/** What the device knows about its photo bytes, read once for a whole screen (index keys and issues only). */
export interface BlobStates {
  pending: ReadonlySet<string>;
  /** Sent from this device; the pull that marks the row present may not have come yet. */
  sent: ReadonlySet<string>;
  refused: ReadonlyMap<string, SyncIssue | null>;
  uploading: ReadonlyMap<string, number>;
}

const EMPTY: BlobStates = { pending: new Set(), sent: new Set(), refused: new Map(), uploading: new Map() };

export function useBlobStates(db: SyncDb): BlobStates {
  const uploading = useSyncExternalStore(
    uploadProgress.subscribe,
    uploadProgress.snapshot,
    uploadProgress.snapshot,
  );
  const stored = useLiveQuery(async () => {
    // Keys only: reading blob records would load their bytes.
    const pending = new Set((await db.blobs.where('status').equals('pending').primaryKeys()) as string[]);
    const sent = new Set((await db.blobs.where('status').equals('uploaded').primaryKeys()) as string[]);
    const rejected = (await db.blobs.where('status').equals('rejected').primaryKeys()) as string[];
    const issues = await db.syncIssues.where('kind').equals('blob').toArray();
    const refused = new Map<string, SyncIssue | null>(rejected.map((sha) => [sha, null]));
    for (const issue of issues) if (issue.sha256) refused.set(issue.sha256, issue);
    return { pending, sent, refused };
  }, [db]);
  return stored ? { ...stored, uploading } : { ...EMPTY, uploading };
}

export function photoState(row: PhotoRow, states: BlobStates): PhotoState {
  const sha = row.sha256 ?? '';
  if (sha && states.refused.has(sha)) {
    const issue = states.refused.get(sha);
    return { kind: 'refused', reason: issue?.message ?? 'The server refused this photo', sha256: sha };
  }
  if (row.blobStatus !== 'pending') return { kind: 'uploaded' };
  const sent = states.uploading.get(sha);
  if (sent !== undefined) return { kind: 'uploading', percent: Math.round(sent * 100) };
  if (states.pending.has(sha)) return { kind: 'on-device' };
  // The server has the bytes once this device sent them, even before the pull says so.
  return states.sent.has(sha) ? { kind: 'uploaded' } : { kind: 'elsewhere' };
}

/** The words of a state, one place for cards, the dialog and the sync status. */
export function photoStateText(state: PhotoState): string {
  switch (state.kind) {
    case 'on-device':
      return 'On this device';
    case 'uploading':
      return `Uploading ${state.percent}%`;
    case 'uploaded':
      return 'Uploaded';
    case 'refused':
      return `Refused: ${state.reason}`;
    case 'elsewhere':
      return 'Waiting for upload';
  }
}

/** A refused photo is tried again: its bytes go back in the lane and its sync issue goes. */
export async function retryRefusedPhoto(db: SyncDb, sha256: string): Promise<void> {
  await db.transaction('rw', db.blobs, db.syncIssues, async () => {
    await db.blobs.update(sha256, { status: 'pending', attempts: 0, nextAttemptAt: 0 });
    await db.syncIssues
      .where('kind')
      .equals('blob')
      .filter((i) => i.sha256 === sha256)
      .delete();
  });
  notifyLocalWrite(db);
}

/**
 * A refused photo is given up: every photo row of those bytes is deleted (a synced delete), and the bytes
 * and the issue leave the device.
 */
export async function removeRefusedPhoto(db: SyncDb, sha256: string): Promise<void> {
  const ids = (await db.photos.where('sha256').equals(sha256).primaryKeys()) as string[];
  for (const id of ids) await mutate(db, 'photos', 'delete', id);
  await db.transaction('rw', db.blobs, db.syncIssues, db.thumbnails, async () => {
    await db.blobs.delete(sha256);
    await db.syncIssues
      .where('kind')
      .equals('blob')
      .filter((i) => i.sha256 === sha256)
      .delete();
    await db.thumbnails.bulkDelete(ids);
  });
}
