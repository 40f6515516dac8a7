import { useCallback } from 'react';
import { liveQuery } from 'dexie';
import type { SyncDb } from '#sync/db.ts';
import type { SyncEngine } from '#sync/engine.ts';
import { toast, type ToastInput } from '#web/components/ui/use-toast.ts';
import { useOptionalSyncEngine } from './local-data.tsx';

/** The toast title of a write that is saved on the device but not on the server yet (issue 9 item 4). */
export const SAVED_ON_DEVICE = 'Saved on this device, will sync';

/** How long an online device waits for its push before it says the change is still waiting. */
export const PUSH_WAIT_MS = 2_000;

/**
 * Resolves true when a change to any of `rowIds` is still in the outbox: at once when the engine cannot
 * push now (offline, paused, failing, or no engine), otherwise once the push has taken them out (false) or
 * `waitMs` has passed (true).
 */
export function stillWaiting(
  db: SyncDb,
  engine: SyncEngine | null,
  rowIds: readonly string[],
  waitMs = PUSH_WAIT_MS,
): Promise<boolean> {
  const count = () =>
    db.outbox
      .where('rowId')
      .anyOf([...rowIds])
      .count();
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

/**
 * The toast after a local write, one helper for every screen: the screen's usual message ("Project
 * created") once the change reached the server, or "Saved on this device, will sync" (with the usual
 * message as its description) while it still waits in the outbox, so nobody takes an offline save for
 * a synced one.
 */
export function useSavedToast(
  db: SyncDb,
): (rowIds: string | readonly string[], message: ToastInput) => Promise<void> {
  const engine = useOptionalSyncEngine();
  return useCallback(
    async (rowIds, message) => {
      const ids = typeof rowIds === 'string' ? [rowIds] : rowIds;
      const waiting = await stillWaiting(db, engine, ids).catch(() => true);
      if (!waiting) {
        toast(message);
        return;
      }
      const what = [message.title, message.description].filter(Boolean).join(': ');
      toast({ title: SAVED_ON_DEVICE, description: what || undefined });
    },
    [db, engine],
  );
}
