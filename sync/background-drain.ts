/**
 * Background Sync (SPEC C14), the service worker's side: on the `sitecommand-outbox` sync it runs the
 * page's own engine for one cycle (the same push and pull code) on the signed-in user's database, under
 * the tabs' Web Lock, so an outbox has one writer at a time.
 */
import { Dexie } from 'dexie';
import { openSyncDb, syncDbName, type SyncDb, type SyncDbOptions } from './db.ts';
import { createSyncEngine, syncLockName } from './engine.ts';
import { requestJson, SyncHttpError, type FetchLike } from './http.ts';

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
 * - `synced`: the outbox of the signed-in user is empty now;
 * - `empty`: nothing to send (no outbox with entries, or none of the signed-in user on this device);
 * - `busy`: an open page kept the sync lock, so that page is the writer and pushes with its own triggers;
 * - `paused`: signed out (401), wrong account (403) or app too old (426): nothing sent, nothing dropped;
 * - `retry`: the server could not be reached or failed: the browser should fire the sync again later.
 */
export type DrainOutcome = 'synced' | 'empty' | 'busy' | 'paused' | 'retry';

type Scope = { companyId: string; userId: string };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const DB_NAME = new RegExp(`^sitecommand-(${UUID})-(${UUID})$`, 'i');

/** The user and company of a sync database, from its name (`syncDbName`), or null for any other database. */
function scopeOfName(name: string): Scope | null {
  const match = DB_NAME.exec(name);
  return match ? { companyId: match[1]!, userId: match[2]! } : null;
}

/**
 * Pushes the outbox of the signed-in user from the service worker, and uploads the photo bytes still on
 * the device, with no page and no running engine. No request goes out while no database on the device
 * holds either, nor while an open page keeps the
 * lock. The session cookie decides whose database is drained: the worker asks the server who is signed
 * in, so another user's outbox on this device is never replayed under this session (SPEC C1).
 */
export async function drainOutbox(options: DrainOptions): Promise<DrainOutcome> {
  const baseUrl = options.baseUrl ?? '';
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const idb = options.indexedDB ?? globalThis.indexedDB;

  // Only databases that exist are opened: opening one by name would create it.
  const waiting: SyncDb[] = [];
  try {
    for (const info of await idb.databases()) {
      const scope = info.name ? scopeOfName(info.name) : null;
      if (!scope) continue;
      const db = openSyncDb(scope, { indexedDB: idb, IDBKeyRange: options.IDBKeyRange, now: options.now });
      waiting.push(db);
      if (!(await hasUnsentWork(db))) {
        waiting.pop();
        db.close();
      }
    }

    let who: Promise<Scope | DrainOutcome> | null = null;
    const signedIn = () => (who ??= askWhoIsSignedIn(fetchFn, baseUrl));
    const drainOne = async (db: SyncDb): Promise<DrainOutcome> => {
      const user = await signedIn();
      if (typeof user === 'string') return user;
      if (db.name !== syncDbName(user.companyId, user.userId)) return 'empty';
      return runCycle(db, baseUrl, fetchFn);
    };

    const outcomes: DrainOutcome[] = [];
    for (const db of waiting) {
      outcomes.push(
        options.locks ? await underLock(options.locks, db, options.lockWaitMs, drainOne) : await drainOne(db),
      );
    }
    return outcomes.find((o) => o !== 'empty') ?? 'empty';
  } finally {
    for (const db of waiting) db.close();
  }
}

/** The signed-in user's scope, or what the worker does when it cannot tell. */
async function askWhoIsSignedIn(fetchFn: FetchLike, baseUrl: string): Promise<Scope | DrainOutcome> {
  try {
    const answer = await requestJson(fetchFn, `${baseUrl}/api/auth/user`, { method: 'GET' });
    const user = (answer.body ?? {}) as { id?: unknown; companyId?: unknown };
    if (typeof user.id !== 'string' || typeof user.companyId !== 'string') return 'retry';
    return { companyId: user.companyId, userId: user.id };
  } catch (err) {
    if (err instanceof SyncHttpError && (err.kind === 'unauthorized' || err.kind === 'forbidden'))
      return 'paused';
    return 'retry';
  }
}

/** Queued changes, or photo bytes waiting for the photo lane (their rows may be on the server already). */
async function hasUnsentWork(db: SyncDb): Promise<boolean> {
  return (await db.outbox.count()) > 0 || (await db.blobs.where('status').equals('pending').count()) > 0;
}

/**
 * Photo bytes whose upload failed in this drain (the lane set them a retry time ahead): the browser should
 * fire the sync again. Bytes that wait for something else (their photo's create refused, in "Sync issues")
 * keep their old time and do not keep the worker coming back.
 */
async function uploadsFailed(db: SyncDb, now: number): Promise<boolean> {
  const later = db.blobs
    .where('[status+nextAttemptAt]')
    .between(['pending', now], ['pending', Dexie.maxKey], false, true);
  return (await later.count()) > 0;
}

/**
 * One engine cycle (push until empty, then pull) and the photo lane, as a page's engine runs them: the
 * lane of a new engine takes every pending photo whatever its retry time (SPEC C9).
 */
async function runCycle(db: SyncDb, baseUrl: string, fetchFn: FetchLike): Promise<DrainOutcome> {
  const engine = createSyncEngine({
    db,
    baseUrl,
    fetch: fetchFn,
    // The caller holds the lock around the whole cycle; the engine must not wait for it again.
    locks: null,
    eventSource: null,
  });
  try {
    await engine.syncNow();
  } finally {
    await engine.stop();
  }
  if (engine.status.get().paused) return 'paused';
  if ((await db.outbox.count()) > 0 || (await uploadsFailed(db, db.now()))) return 'retry';
  return 'synced';
}

/** Runs `fn` holding the tabs' sync lock of `db`, or answers `busy` when a page keeps it past the wait. */
async function underLock(
  locks: AbortableLocks,
  db: SyncDb,
  waitMs: number | undefined,
  fn: (db: SyncDb) => Promise<DrainOutcome>,
): Promise<DrainOutcome> {
  try {
    return await locks.request(
      syncLockName(db.name),
      { signal: AbortSignal.timeout(waitMs ?? LOCK_WAIT_MS) },
      () => fn(db),
    );
  } catch (err) {
    // The wait timed out (the lock manager rejects with the signal's reason): a page is syncing.
    if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError'))
      return 'busy';
    throw err;
  }
}
