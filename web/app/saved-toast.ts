import { useCallback } from 'react';
import { liveQuery } from 'dexie';
import type { SyncDb } from '#sync/db.ts';
import type { SyncEngine } from '#sync/engine.ts';
import { unsentBlobKeys } from '#sync/photo-lane.ts';
import { toast, type ToastInput } from '#web/components/ui/use-toast.ts';
import { useOptionalSyncEngine } from './local-data.tsx';

/** The toast title of a write that is saved on the device but not on the server yet (issue 9 item 4). */
export const SAVED_ON_DEVICE = 'Saved on this device, will sync';

/** How long an online device waits for its push before it says the change is still waiting. */
export const PUSH_WAIT_MS = 2_000;

/** What a local write waits for before the server has it. */
export interface SavedWrite {
  /** Rows whose changes sit in the outbox. */
  rowIds: readonly string[];
  /** Photo bytes (SHA-256) that go up on the photo lane: a photo is not uploaded before its bytes are. */
  blobs?: readonly string[];
}

/**
 * Resolves true when a change to any of `write.rowIds` is still in the outbox, or any of `write.blobs` is
 * not on the server yet: at once when the engine cannot push now (offline, paused, failing, or no engine),
 * otherwise once the push and the photo lane have taken them out (false) or `waitMs` has passed (true).
 */
export function stillWaiting(
  db: SyncDb,
  engine: SyncEngine | null,
  write: SavedWrite,
  waitMs = PUSH_WAIT_MS,
): Promise<boolean> {
  const blobs = new Set(write.blobs ?? []);
  const count = async () => {
    const changes = await db.outbox
      .where('rowId')
      .anyOf([...write.rowIds])
      .count();
    if (blobs.size === 0) return changes;
    const unsent = await unsentBlobKeys(db);
    return changes + unsent.filter((sha) => blobs.has(sha)).length;
  };
  const cannotPush = (s: ReturnType<SyncEngine['status']['get']>) =>
    !s.online || s.paused !== null || s.error !== null;
  if (!engine || cannotPush(engine.status.get())) return count().then((n) => n > 0);
  return new Promise<boolean>((resolve) => {
    let done = false;
    const cleanups: (() => void)[] = [];
    const finish = (waiting: boolean) => {
      if (done) return;
      done = true;
      for (const c of cleanups) c();
      resolve(waiting);
    };
    const sub = liveQuery(count).subscribe({
      next: (n) => {
        if (n === 0) finish(false);
      },
      error: () => finish(true),
    });
    cleanups.push(() => sub.unsubscribe());
    cleanups.push(
      engine.status.subscribe((s) => {
        if (cannotPush(s)) finish(true);
      }),
    );
    const timer = setTimeout(() => finish(true), waitMs);
    cleanups.push(() => clearTimeout(timer));
  });
}

export interface SavedToastOptions {
  /** Photo bytes the write also waits for (see `SavedWrite`). */
  blobs?: readonly string[];
  /**
   * The description under "Saved on this device, will sync" when the usual message is untrue until the
   * server has the change ("Photo uploaded successfully"); the usual message otherwise.
   */
  whileWaiting?: string;
}

/**
 * The toast after a local write, one helper for every screen: the screen's usual message ("Project
 * created") once the change reached the server, or "Saved on this device, will sync" (with the usual
 * message, or `whileWaiting`, as its description) while it still waits, so nobody takes an offline save
 * for a synced one.
 */
export function useSavedToast(
  db: SyncDb,
): (rowIds: string | readonly string[], message: ToastInput, options?: SavedToastOptions) => Promise<void> {
  const engine = useOptionalSyncEngine();
  return useCallback(
    async (rowIds, message, options = {}) => {
      const ids = typeof rowIds === 'string' ? [rowIds] : rowIds;
      const waiting = await stillWaiting(db, engine, { rowIds: ids, blobs: options.blobs }).catch(() => true);
      if (!waiting) {
        toast(message);
        return;
      }
      const what = options.whileWaiting ?? [message.title, message.description].filter(Boolean).join(': ');
      toast({ title: SAVED_ON_DEVICE, description: what || undefined });
    },
    [db, engine],
  );
}
