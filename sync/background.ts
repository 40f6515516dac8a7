/**
 * Background Sync (SPEC C14): where the browser has it (Chromium), a queued write registers a one-off sync,
 * and the service worker pushes the outbox when the connection returns, even with every page closed. The
 * worker runs the page's own engine for one cycle (same push and pull code), under the page's Web Lock, so
 * there is one writer of an outbox at a time. Elsewhere nothing changes: the page's triggers remain.
 */
import { openSyncDb, syncDbName, type SyncDbOptions } from './db.ts';
import { createSyncEngine, syncLockName } from './engine.ts';
import { requestJson, SyncHttpError, type FetchLike } from './http.ts';

/** The Background Sync tag the page registers and the service worker answers. */
export const OUTBOX_SYNC_TAG = 'sitecommand-outbox';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/**
 * Asks the browser for a background sync of the outbox. A no-op where there is no service worker or no
 * Background Sync (Safari, Firefox, Node tests); never throws and never waits for the worker.
 */
export function requestBackgroundSync(): void {
  try {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container || typeof container.getRegistration !== 'function') return;
    void container
      .getRegistration()
      .then((registration) => {
        const sync = (registration as { sync?: SyncManagerLike } | undefined)?.sync;
        return sync?.register(OUTBOX_SYNC_TAG);
      })
      // Refused (no permission, no active worker yet): the page's own triggers still push.
      .catch(() => {});
  } catch {
    // A browser without the API surface the feature test expects: nothing to register.
  }
}

/** `navigator.locks` as the worker uses it: a request that stops waiting when its signal aborts. */
export interface AbortableLocks {
  request<T>(
    name: string,
    options: { signal: AbortSignal },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/**
 * How long the worker waits for a tab's sync lock. A tab that is closing lets go within moments, and the
 * worker then pushes; a tab still open keeps it, and that tab is the writer.
 */
export const LOCK_WAIT_MS = 10_000;

export interface DrainOptions {
  /** Origin of the API ('' in the worker: same origin). */
  baseUrl?: string;
  /** Sends the session cookie (the worker's fetch does for same-origin requests). */
  fetch?: FetchLike;
  /** Web Locks; `null` runs without a lock (tests of one device). */
  locks: AbortableLocks | null;
  /** How long to wait for a tab's lock (default LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** IndexedDB of the device (the worker's global one by default; fake-indexeddb in tests). */
  indexedDB?: IDBFactory;
  IDBKeyRange?: SyncDbOptions['IDBKeyRange'];
  now?: () => number;
}

/**
 * What a background drain did:
 * - `synced`: the outbox is empty now;
 * - `empty`: there was nothing to send (or no database of the signed-in user on this device);
 * - `busy`: an open page kept the sync lock, so that page is the writer and pushes with its own triggers;
 * - `paused`: signed out (401), wrong account (403) or app too old (426): nothing sent, nothing dropped;
 * - `retry`: the server could not be reached or failed: the browser should fire the sync again later.
 */
export type DrainOutcome = 'synced' | 'empty' | 'busy' | 'paused' | 'retry';

/**
 * Pushes the outbox of the signed-in user from the service worker, with no page and no running engine.
 * The session cookie decides whose database is drained: the worker asks the server who is signed in, so
 * another user's outbox on this device is never replayed under this session (SPEC C1).
 */
export async function drainOutbox(options: DrainOptions): Promise<DrainOutcome> {
  const baseUrl = options.baseUrl ?? '';
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const idb = options.indexedDB ?? globalThis.indexedDB;

  let scope: { companyId: string; userId: string };
  try {
    const answer = await requestJson(fetchFn, `${baseUrl}/api/auth/user`, { method: 'GET' });
    const user = (answer.body ?? {}) as { id?: unknown; companyId?: unknown };
    if (typeof user.id !== 'string' || typeof user.companyId !== 'string') return 'retry';
    scope = { companyId: user.companyId, userId: user.id };
  } catch (err) {
    if (err instanceof SyncHttpError && (err.kind === 'unauthorized' || err.kind === 'forbidden'))
      return 'paused';
    return 'retry';
  }

  // Opening a database that is not there would create an empty one for a user who never used this device.
  const name = syncDbName(scope.companyId, scope.userId);
  const existing = await idb.databases();
  if (!existing.some((d) => d.name === name)) return 'empty';

  const db = openSyncDb(scope, { indexedDB: idb, IDBKeyRange: options.IDBKeyRange, now: options.now });
  try {
    if ((await db.outbox.count()) === 0) return 'empty';
    const drain = async (): Promise<DrainOutcome> => {
      const engine = createSyncEngine({
        db,
        baseUrl,
        fetch: fetchFn,
        // The lock is held around the whole cycle here; the engine itself must not wait for it again.
        locks: null,
        eventSource: null,
      });
      try {
        await engine.syncNow();
      } finally {
        await engine.stop();
      }
      if (engine.status.get().paused) return 'paused';
      return (await db.outbox.count()) === 0 ? 'synced' : 'retry';
    };
    if (!options.locks) return await drain();
    try {
      return await options.locks.request(
        syncLockName(db.name),
        { signal: AbortSignal.timeout(options.lockWaitMs ?? LOCK_WAIT_MS) },
        () => drain(),
      );
    } catch (err) {
      // The wait timed out (the lock manager rejects with the signal's reason): a page is syncing.
      if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError'))
        return 'busy';
      throw err;
    }
  } finally {
    db.close();
  }
}
