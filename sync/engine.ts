import { Dexie, type ObservabilitySet } from 'dexie';
import {
  MAX_PUSH_MUTATIONS,
  SCHEMA_VERSION,
  type ChangesEvent,
  type MutationResult,
  type PullResponse,
  type PushResponse,
} from '#shared/sync-protocol.ts';
import { requestBackgroundSync } from './background.ts';
import { estimateClockOffset } from './clock.ts';
import { readMeta, type OutboxEntry, type SyncDb, type SyncMeta } from './db.ts';
import {
  browserEnvironment,
  browserEventSource,
  browserLocks,
  realTimers,
  type EventSourceFactory,
  type EventSourceLike,
  type LockManagerLike,
  type SyncEnvironment,
  type Timers,
} from './env.ts';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  requestJson,
  SyncHttpError,
  type BackoffOptions,
  type FailureKind,
  type FetchLike,
} from './http.ts';
import { onLocalWrite } from './hub.ts';
import { createPhotoLane } from './photo-lane.ts';
import { applyPullPage, yieldToMain } from './pull.ts';
import { applyPushResults, resolveOutOfOrder, toWire } from './push.ts';
import { isStorageFull, STORAGE_FULL_SYNC_MESSAGE } from './storage-full.ts';

/** The last failure the engine met, for the UI. */
export interface SyncError {
  kind: FailureKind;
  code?: string;
  message: string;
  /** Device time (epoch ms) of the failure, and of the next automatic retry (null: none until resumed). */
  at: number;
  retryAt: number | null;
}

/** What the UI shows about sync (DESIGN.md section 7). */
export interface SyncStatus {
  /** The device thinks it can reach the server (browser flag and the last request's outcome). */
  online: boolean;
  pushing: boolean;
  pulling: boolean;
  /** Unsent changes, and when the oldest of them was made (device epoch ms), or null. */
  pending: number;
  oldestPendingAt: number | null;
  /** Photos whose bytes are not on the server yet. */
  blobsPending: number;
  /** Entries in the "Sync issues" list. */
  issues: number;
  /** Device time (epoch ms) of the last complete push and pull, or null. */
  lastSyncedAt: number | null;
  /**
   * Rows this engine has received from pulls since it started: the progress a screen shows while the
   * device's first download runs (DESIGN.md section 7: progress, never an empty state).
   */
  rowsDownloaded: number;
  error: SyncError | null;
  /** Why the queue waits for the user: signed out (401), wrong account (403), app too old (426). */
  paused: null | 'unauthorized' | 'forbidden' | 'schema';
  /** This tab holds the sync lock (only one tab syncs). */
  leader: boolean;
}

/** A value the UI can read now and subscribe to. */
export interface Observable<T> {
  get(): T;
  /** Calls `fn` on every change; returns the unsubscribe function. */
  subscribe(fn: (value: T) => void): () => void;
}

/** The engine's collaborators; everything but `db` has a browser default, and tests inject fakes. */
export interface SyncEngineOptions {
  db: SyncDb;
  /** Origin of the API ('' in the browser: same origin). */
  baseUrl?: string;
  fetch?: FetchLike;
  /** Device clock, epoch ms (default: the database's clock). */
  now?: () => number;
  /** Random numbers in [0, 1) for backoff jitter (seeded in tests). */
  random?: () => number;
  /** Web Locks; `null` runs without a lock (a single tab or a test). Default `navigator.locks` when present. */
  locks?: LockManagerLike | null;
  /** Opens the poke stream; `null` disables pokes. Default `EventSource` when present. */
  eventSource?: EventSourceFactory | null;
  environment?: SyncEnvironment;
  timers?: Timers;
  /** Mutations per push request (at most MAX_PUSH_MUTATIONS). */
  batchSize?: number;
  /** Changes per pull page (the server caps it at 5,000). */
  pullLimit?: number;
  /** Delay between a local write and the push it triggers (SPEC C18); later writes do not postpone it. */
  debounceMs?: number;
  /** Gives the main thread back between pull pages (SPEC C17); default `scheduler.yield`, else a macrotask. */
  yieldToMain?: () => Promise<void>;
  /** Periodic sync while the page is visible. */
  intervalMs?: number;
  backoff?: BackoffOptions;
  /** Per-request timeout, ms. */
  requestTimeoutMs?: number;
  /** Byte cap of photo bytes kept on the device (uploaded ones are evicted, least recently used first). */
  blobCapBytes?: number;
}

/** The sync engine of one device database. */
export interface SyncEngine {
  /** Starts the triggers (online, visibility, local writes, pokes, timer) and, once this tab holds the lock, syncs. */
  start(): void;
  /**
   * Stops every trigger and timer and sends nothing more until `start()` (SPEC C22), releases the lock,
   * and waits for a running cycle to end (its request already out, not the next).
   */
  stop(): Promise<void>;
  /** Runs a cycle now (or right after the running one) and the photo lane; resolves when both are done. */
  syncNow(): Promise<void>;
  /** Lifts a pause after sign-in (401) and retries at once. A 426 pause stays until the app is updated. */
  resume(): void;
  status: Observable<SyncStatus>;
}

function observable<T extends object>(initial: T): Observable<T> & { set(patch: Partial<T>): void } {
  let value = initial;
  const subscribers = new Set<(v: T) => void>();
  return {
    get: () => value,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    set(patch) {
      const keys = Object.keys(patch) as (keyof T)[];
      if (keys.every((k) => Object.is(value[k], patch[k]))) return;
      value = { ...value, ...patch };
      for (const fn of subscribers) fn(value);
    },
  };
}

/**
 * How long a local write waits before the push it triggers (SPEC C18): long enough to gather the writes of
 * one user action into one push (they commit within a few IndexedDB transactions of each other), short
 * enough that a change reaches other devices within 300 ms end to end (budget B6). It was 200 ms, but the
 * rest of the trip (push, poke, pull, apply) takes 90-130 ms at the median on the bench machine, so most of
 * the end-to-end budget went to waiting (ADR 021, round 3).
 */
export const PUSH_DELAY_MS = 100;

/**
 * Outbox entries read per IndexedDB read while pushing, so a long drain reads rarely (at least one batch).
 * Counted in entries, not batches: what one read costs the device does not depend on the batch size.
 */
const READ_AHEAD_ENTRIES = 1000;

/** Answers stored together while pushing (SPEC C19, at least one batch); the rest when the queue is sent. */
const STORE_ENTRIES = 1000;

/**
 * The Web Lock that makes one writer of a database's outbox at a time: held by the syncing tab for its
 * lifetime, and taken by the service worker's background sync (`sync/background.ts`) only when no tab has it.
 */
export function syncLockName(dbName: string): string {
  return `sitecommand-sync-${dbName}`;
}

/** The body of a `changes` event (SPEC L16), or null when it is not one. */
function carriedChanges(data: string): ChangesEvent | null {
  try {
    const parsed = JSON.parse(data) as Partial<ChangesEvent> | null;
    if (
      parsed &&
      Number.isInteger(parsed.from) &&
      Number.isInteger(parsed.cursor) &&
      parsed.cursor! > parsed.from! &&
      Array.isArray(parsed.changes)
    )
      return parsed as ChangesEvent;
  } catch {
    // not JSON: ignored
  }
  return null;
}

/** Parses a poke: `{"version": N}` or a bare number. */
function pokeVersion(data: string): number | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'number') return parsed;
    if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'number') {
      return parsed.version;
    }
  } catch {
    // not JSON: ignored
  }
  return null;
}

/**
 * Creates the sync engine (DESIGN.md section 7, `sync/SPEC.md` rules C*). A cycle pushes the outbox in
 * batches until it is empty, then pulls until `hasMore` is false. Failures back off with jitter on a timer
 * that runs without new writes; a 401 pauses the queue until `resume()`, dropping nothing; a 426 stops it.
 * Only the tab holding the Web Lock runs cycles.
 */
export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { db } = options;
  const baseUrl = options.baseUrl ?? '';
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const now = options.now ?? db.now;
  const random = options.random ?? Math.random;
  const timers = options.timers ?? realTimers;
  const env = options.environment ?? browserEnvironment();
  const locks = options.locks === undefined ? browserLocks() : options.locks;
  const openEvents = options.eventSource === undefined ? browserEventSource() : options.eventSource;
  const batchSize = Math.max(1, Math.min(options.batchSize ?? MAX_PUSH_MUTATIONS, MAX_PUSH_MUTATIONS));
  /**
   * Mutations in the next push (SPEC C23): `batchSize`, cut to a quarter after a push that timed out or
   * was too large, and doubled back after each answered one. A batch that cannot cross a weak link within
   * the request timeout would otherwise be sent whole again and again, and nothing behind it would move.
   */
  let pushSize = batchSize;
  const pullLimit = options.pullLimit ?? 1000;
  const debounceMs = options.debounceMs ?? PUSH_DELAY_MS;
  const yieldNow = options.yieldToMain ?? yieldToMain;
  const intervalMs = options.intervalMs ?? 30_000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const lockName = syncLockName(db.name);

  const status = observable<SyncStatus>({
    online: env.isOnline(),
    pushing: false,
    pulling: false,
    pending: 0,
    oldestPendingAt: null,
    blobsPending: 0,
    issues: 0,
    lastSyncedAt: null,
    rowsDownloaded: 0,
    error: null,
    paused: null,
    leader: locks === null,
  });

  let started = false;
  let leader = locks === null;
  let paused: SyncStatus['paused'] = null;
  let failures = 0;
  let cursor = 0;
  let running: Promise<void> | null = null;
  let again = false;
  /** The highest version poked while a cycle ran: that cycle's pull may already have brought it (SPEC C8). */
  let pokedWhileRunning = 0;
  let wakeTimer: unknown = null;
  let debounceTimer: unknown = null;
  let releaseLock: (() => void) | null = null;
  let events: EventSourceLike | null = null;
  /** The poke stream should be open (it opens once the sync state is read). */
  let eventsWanted = false;
  let unsubscribers: (() => void)[] = [];
  /**
   * Set by `stop()` until the next `start()` (SPEC C22): nothing more is sent. Sign-out stops the engine
   * just before the session ends, and a pull loop or retry going on past it only met refusals (401, 403
   * CLIENT_BOUND). A request already out is answered under the session it was sent in and its answer kept.
   */
  let halted = false;
  const fetchUnlessStopped: FetchLike = (input, init) =>
    halted ? Promise.reject(new Error('Sync stopped')) : fetchFn(input, init);

  const lane = createPhotoLane({
    db,
    baseUrl,
    fetch: fetchUnlessStopped,
    now,
    random,
    timers,
    backoff,
    capBytes: options.blobCapBytes,
    isPaused: () => paused !== null || !leader,
    onFatal: (err) => pause(err),
    onChange: (uploaded) => {
      void refreshCounts().catch(() => {});
      // The server marks the photo rows present with a new version: pull it.
      if (uploaded) debounce();
    },
  });

  async function refreshCounts(): Promise<void> {
    const counts = await db.transaction('r', [db.outbox, db.blobs, db.syncIssues, db.meta], async () => ({
      pending: await db.outbox.count(),
      oldest: await db.outbox.orderBy('seq').first(),
      blobsPending: await db.blobs.where('status').equals('pending').count(),
      issues: await db.syncIssues.count(),
      meta: await db.meta.get('state'),
    }));
    cursor = counts.meta?.cursor ?? cursor;
    status.set({
      pending: counts.pending,
      oldestPendingAt: counts.oldest?.createdAt ?? null,
      blobsPending: counts.blobsPending,
      issues: counts.issues,
      lastSyncedAt: counts.meta?.lastSyncedAt ?? null,
    });
  }

  const url = (path: string) => `${baseUrl}${path}`;

  /**
   * Pushes the outbox in id order until it is empty (SPEC C4, C19). The next batch goes out as soon as the
   * server has answered the previous one (so it has committed it). The answers are stored in one
   * transaction per 1,000 entries (and once at the end), behind the sends: each push tells the server which
   * answers are stored (`acknowledged`, R1), so it keeps the others for replay should this device be cut
   * off first. Storing many batches together spares the row bookkeeping between them: a row created in one
   * batch and edited in a later one needs no interim shadow. The queue is read ahead 1,000 entries at a
   * time (entries never change once queued), so sending waits for no IndexedDB read. Resolves once every
   * batch is answered, with `stored`: starts storing the answers not stored yet and resolves once they are
   * (the pull calls it once its first request is out, and applies its first page after them).
   */
  async function pushAll(stateRead: Promise<SyncMeta>): Promise<{ stored: () => Promise<void> }> {
    let lastConflict: number | null = null;
    let clientId = '';
    let ahead: OutboxEntry[] = [];
    let readUpTo = 0;
    let reading: Promise<OutboxEntry[]> | null = null;
    /** Every entry read and not yet stored as answered, in queue order: what a store needs to know (C19). */
    let held: OutboxEntry[] = [];
    /** The highest mutation id whose answer is stored: all below the queue's head, then each store's. */
    let acknowledged = 0;
    // The first read of a run is one batch, so it goes out at once; the read-ahead behind it runs while
    // that batch is encoded and on the server.
    let firstRead = true;
    const readAhead = () => {
      const limit = firstRead ? pushSize : Math.max(batchSize, READ_AHEAD_ENTRIES);
      firstRead = false;
      return db.outbox.where('seq').above(readUpTo).limit(limit).toArray();
    };
    const nextBatch = async (): Promise<OutboxEntry[]> => {
      if (ahead.length === 0) {
        ahead = await (reading ?? readAhead());
        reading = null;
        readUpTo = ahead[ahead.length - 1]?.seq ?? readUpTo;
        held.push(...ahead);
      }
      const batch = ahead.splice(0, pushSize);
      // The next read starts as soon as this one is used up: it then waits only for the stores queued
      // before it, not for the last batches' (a write queued after it goes out with the next cycle, C8).
      if (ahead.length === 0 && batch.length > 0) {
        reading = readAhead();
        reading.catch(() => {});
      }
      return batch;
    };
    const send = (batch: OutboxEntry[]) =>
      requestJson(
        fetchUnlessStopped,
        url('/api/sync/push'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            clientId,
            schemaVersion: SCHEMA_VERSION,
            mutations: batch.map(toWire),
            acknowledged,
          }),
          timeoutMs,
        },
        [409],
      );

    let answered: { batch: OutboxEntry[]; results: MutationResult[] }[] = [];
    let storing: Promise<void> | null = null;
    let storeFailure = null as { error: unknown } | null;
    /** Stores every answer received so far, in one transaction; then the server may forget them (R1). */
    const store = (): Promise<void> => {
      storing ??= (async () => {
        try {
          if (answered.length > 0 && !storeFailure) {
            const group = answered;
            answered = [];
            const entries = group.flatMap((g) => g.batch);
            const last = Math.max(...entries.map((e) => e.seq!));
            held = held.filter((e) => e.seq! > last);
            const settled = await applyPushResults(
              db,
              entries,
              group.flatMap((g) => g.results),
              now(),
              { after: held.slice(), upTo: readUpTo },
            );
            acknowledged = Math.max(acknowledged, ...entries.map((e) => e.id));
            status.set({ pending: Math.max(0, status.get().pending - settled) });
          }
        } catch (error) {
          storeFailure = { error };
        } finally {
          storing = null;
        }
      })();
      return storing;
    };
    /** Stores every answer received and waits for it; throws when storing one failed. */
    const flush = async (): Promise<void> => {
      while (storing || (answered.length > 0 && !storeFailure)) await (storing ?? store());
      if (storeFailure) throw storeFailure.error;
    };
    const unstored = () => answered.reduce((n, g) => n + g.batch.length, 0);

    const start = (batch: OutboxEntry[]) => {
      if (batch.length) acknowledged = batch[0]!.id - 1;
      return batch.length ? send(batch) : null;
    };
    try {
      // The sync state and the head of the queue are read side by side: two reads, one wait.
      let batch: OutboxEntry[];
      [{ clientId }, batch] = await Promise.all([stateRead, nextBatch()]);
      let inflight = start(batch);
      while (inflight) {
        const answer = await inflight;
        status.set({ online: true });
        if (storeFailure) throw storeFailure.error;
        if (answer.status === 409) {
          const body = (answer.body ?? {}) as { code?: unknown; expectedMutationId?: unknown };
          const expected = body.expectedMutationId;
          const refused = () =>
            new SyncHttpError(
              'protocol',
              'The server refused the order of the queue',
              409,
              'OUT_OF_ORDER',
              body,
            );
          if (body.code !== 'OUT_OF_ORDER' || typeof expected !== 'number' || expected === lastConflict)
            throw refused();
          lastConflict = expected;
          // The queue is fixed from what is stored: every earlier answer first.
          await flush();
          if (!(await resolveOutOfOrder(db, expected))) throw refused();
          // The queue was trimmed or renumbered: read it again from its head.
          ahead = [];
          readUpTo = 0;
          reading = null;
          firstRead = true;
          held = [];
          batch = await nextBatch();
          inflight = start(batch);
          continue;
        }
        const body = answer.body as PushResponse | null;
        if (!body || !Array.isArray(body.results))
          throw new SyncHttpError('protocol', 'Push answer without results', 200);
        const answeredIds = new Set(body.results.map((r) => r.id));
        if (!batch.some((e) => answeredIds.has(e.id)))
          throw new SyncHttpError('protocol', 'The server answered none of the pushed mutations', 200);
        pushSize = Math.min(batchSize, pushSize * 2);
        const next = await nextBatch();
        const nextInflight = next.length ? send(next) : null;
        // Awaited on the next turn; until then a failure must not count as unhandled.
        nextInflight?.catch(() => {});
        answered.push({ batch, results: body.results });
        // The last answers are stored once the pull is requested (`stored`), not before.
        if (nextInflight && unstored() >= Math.max(batchSize, STORE_ENTRIES)) void store();
        batch = next;
        inflight = nextInflight;
      }
    } catch (err) {
      // No answer within the timeout, or too large a body: the next try sends less (C23). A request that
      // could not be sent at all (offline, server down) says nothing about its size.
      if (err instanceof SyncHttpError && (err.code === 'TIMEOUT' || err.status === 413))
        pushSize = Math.max(1, Math.floor(pushSize / 4));
      // What the server did answer is still stored before the failure is reported.
      await flush().catch(() => {});
      throw err;
    }
    let storingRest: Promise<void> | null = null;
    const stored = () => {
      if (!storingRest) {
        storingRest = flush();
        // Awaited by the pull (or by the cycle); until then a failure must not count as unhandled.
        storingRest.catch(() => {});
      }
      return storingRest;
    };
    return { stored };
  }

  /**
   * Pulls until `hasMore` is false. Returns 'reset' when the server cannot serve the cursor. `pushed`: stores
   * the push answers not stored yet; it starts once the first page is requested, and that page is applied
   * after them, so it sees the outbox as the server does.
   */
  async function pullAll(
    fromScratch: boolean,
    pushed: () => Promise<void>,
    stateRead?: Promise<SyncMeta>,
  ): Promise<'done' | 'reset'> {
    let first = true;
    for (;;) {
      const meta = await (first && stateRead ? stateRead : readMeta(db));
      const from = fromScratch && first ? 0 : meta.cursor;
      const params = new URLSearchParams({
        clientId: meta.clientId,
        cursor: String(from),
        limit: String(pullLimit),
        // SPEC P15: a server that mirrors tables this app does not know answers 426 (update the app).
        schemaVersion: String(SCHEMA_VERSION),
      });
      const sentAt = now();
      const request = requestJson(fetchUnlessStopped, url(`/api/sync/pull?${params.toString()}`), {
        method: 'GET',
        timeoutMs,
      });
      // The request is out: the answers are stored while the server answers it.
      const storing = first ? pushed() : null;
      const answer = await request;
      const receivedAt = now();
      status.set({ online: true });
      if (storing) await storing;
      const body = answer.body as PullResponse | null;
      if (!body || typeof body !== 'object')
        throw new SyncHttpError('protocol', 'Empty pull answer', answer.status);
      if ('reset' in body) return 'reset';
      const page = body;
      if (!Array.isArray(page.changes) || typeof page.cursor !== 'number') {
        throw new SyncHttpError('protocol', 'Malformed pull answer', answer.status);
      }
      if (page.hasMore && page.cursor <= from) {
        throw new SyncHttpError('protocol', 'Pull cursor did not advance', answer.status);
      }
      await applyPullPage(db, page.changes, {
        cursor: page.cursor,
        clockOffsetMs: estimateClockOffset(sentAt, receivedAt, page.serverTime),
        clear: fromScratch && first,
        now: receivedAt,
        final: !page.hasMore,
      });
      cursor = page.cursor;
      first = false;
      status.set({ rowsDownloaded: status.get().rowsDownloaded + page.changes.length });
      if (!page.hasMore) return 'done';
      // A first download is many pages: input and rendering get the main thread between them (SPEC C17).
      await yieldNow();
    }
  }

  async function cycle(): Promise<boolean> {
    // The push answers still being stored: a cycle never ends (nor fails) before they are.
    let stored: () => Promise<void> = () => Promise.resolve();
    try {
      status.set({ pushing: true });
      // One read of the sync state gives the push its client id and the pull its first cursor: only this
      // cycle's own pull moves the cursor, and no other pull runs while this tab holds the sync lock.
      const state = readMeta(db);
      state.catch(() => {});
      ({ stored } = await pushAll(state));
      status.set({ pushing: false, pulling: true });
      if ((await pullAll(false, stored, state)) === 'reset') {
        // The server cannot continue from our cursor: send what is queued, then download everything again.
        status.set({ pulling: false, pushing: true });
        ({ stored } = await pushAll(readMeta(db)));
        status.set({ pushing: false, pulling: true });
        if ((await pullAll(true, stored)) === 'reset') {
          throw new SyncHttpError('protocol', 'The server asked for a reset of a pull from the start');
        }
      }
      failures = 0;
      status.set({ online: true, error: null });
      return true;
    } catch (err) {
      await stored().catch(() => {});
      // Stopped: not a failure to show or to retry (the service worker must not send it either).
      if (!halted) onFailure(err);
      return false;
    } finally {
      status.set({ pushing: false, pulling: false });
      await refreshCounts().catch(() => {});
    }
  }

  function onFailure(err: unknown) {
    const e =
      err instanceof SyncHttpError
        ? err
        : isStorageFull(err)
          ? new SyncHttpError('protocol', STORAGE_FULL_SYNC_MESSAGE, undefined, 'STORAGE_FULL')
          : new SyncHttpError('protocol', err instanceof Error ? err.message : String(err));
    if (e.kind === 'unauthorized' || e.kind === 'forbidden' || e.kind === 'schema') {
      pause(e);
      return;
    }
    failures++;
    // Should this page close before the retry, the service worker sends the outbox once it can (SPEC C14).
    if (e.kind === 'network' || e.kind === 'server') requestBackgroundSync();
    const delay = Math.max(backoffDelay(failures, random, backoff), e.retryAfterMs ?? 0);
    const at = now();
    status.set({
      online: e.kind === 'network' ? false : status.get().online,
      error: { kind: e.kind, code: e.code, message: e.message, at, retryAt: started ? at + delay : null },
    });
    // The retry timer runs without any new write; an engine that was never started only syncs on demand.
    if (started) wake(delay);
  }

  function pause(e: SyncHttpError) {
    paused = e.kind === 'schema' ? 'schema' : e.kind === 'forbidden' ? 'forbidden' : 'unauthorized';
    clearTimer('wake');
    clearTimer('debounce');
    status.set({
      paused,
      error: { kind: e.kind, code: e.code, message: e.message, at: now(), retryAt: null },
    });
  }

  function clearTimer(which: 'wake' | 'debounce') {
    if (which === 'wake' && wakeTimer !== null) {
      timers.clearTimeout(wakeTimer);
      wakeTimer = null;
    }
    if (which === 'debounce' && debounceTimer !== null) {
      timers.clearTimeout(debounceTimer);
      debounceTimer = null;
    }
  }

  /** The next automatic cycle: a backoff retry, or the periodic sync (which a hidden page skips). */
  function wake(ms: number, periodic = false) {
    clearTimer('wake');
    wakeTimer = timers.setTimeout(() => {
      wakeTimer = null;
      if (periodic && !env.isVisible()) return;
      runAfterCurrent();
    }, ms);
  }

  /**
   * A cycle after the one running, if any. `run()` alone would fold into a cycle still winding down, and a
   * failed cycle does not loop again: a retry, or the connection's return, would be lost until the backoff.
   */
  function runAfterCurrent() {
    void (running ? running.then(run) : run());
  }

  /** Schedules the push of local writes; a write while one is scheduled joins it (SPEC C18). */
  function debounce() {
    if (!started || failures > 0 || paused || debounceTimer !== null) return;
    debounceTimer = timers.setTimeout(() => {
      debounceTimer = null;
      void run();
    }, debounceMs);
  }

  /** This tab may sync now: it holds the lock, and sync is neither paused nor halted. */
  const mayRun = () => leader && !paused && !halted;

  /** `work` as the running cycle: `run()`, `syncNow` and `stop` wait on it, and it ends before the next. */
  function asRunning(work: () => Promise<void>): Promise<void> {
    running = work().finally(() => {
      running = null;
    });
    return running;
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      pokedWhileRunning = 0;
      const ok = await cycle();
      if (pokedWhileRunning > cursor) again = true;
      if (!ok) return;
      void lane.kick();
      if (started && env.isVisible() && !again) wake(intervalMs, true);
    } while (again && mayRun());
  }

  function run(): Promise<void> {
    if (!mayRun()) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    return asRunning(loop);
  }

  function openPokes() {
    if (!openEvents || events || eventsWanted) return;
    eventsWanted = true;
    // SPEC C24: the stream is told this device's client id and cursor, so it can carry the next commit's
    // changes itself (L16) instead of a poke the device answers with a pull: a round trip less.
    void readMeta(db)
      .catch(() => null)
      .then((meta) => {
        if (!eventsWanted || events || !openEvents) return;
        const params = new URLSearchParams({ schemaVersion: String(SCHEMA_VERSION) });
        if (meta) {
          params.set('clientId', meta.clientId);
          params.set('cursor', String(meta.cursor));
        }
        try {
          events = openEvents(url(`/api/sync/events?${params.toString()}`));
        } catch {
          events = null;
          return;
        }
        // SPEC L10: `event: version`, `data: {"version": N}`; a client behind it pulls.
        events.addEventListener('version', (event) => {
          const version = pokeVersion(event.data);
          if (version !== null) poked(version);
        });
        events.addEventListener('changes', (event) => {
          const carried = carriedChanges(event.data);
          if (!carried || carried.cursor <= cursor) return;
          // Carried from a cursor this device has not reached (its own pull is behind), or arriving while a
          // cycle runs: a poke, as before.
          if (running || carried.from > cursor) poked(carried.cursor);
          else applyCarried(carried);
        });
      });
  }

  /** The server's version is `version`: a device behind it pulls (SPEC C8). */
  function poked(version: number) {
    if (version <= cursor) return;
    // During a cycle, another runs only if this one's pull ends below the version: the stream's first
    // poke comes while a new device's first pull is out, and that pull already brings it.
    if (running) pokedWhileRunning = Math.max(pokedWhileRunning, version);
    else void run();
  }

  /**
   * SPEC C24: stores the changes the stream carried as the pull from their `from` would have (one page, the
   * last), under the same turn as a cycle. If they cannot be stored as such (the stored cursor moved, a
   * failure), a cycle pulls them instead.
   */
  function applyCarried(carried: ChangesEvent) {
    if (!mayRun()) return;
    void asRunning(async () => {
      status.set({ pulling: true });
      try {
        const applied = await applyPullPage(db, carried.changes, {
          cursor: carried.cursor,
          from: carried.from,
          now: now(),
          final: true,
        });
        if (applied) {
          cursor = carried.cursor;
          status.set({ rowsDownloaded: status.get().rowsDownloaded + carried.changes.length });
        } else again = true;
      } catch {
        // The cycle's own pull meets the same failure and reports it.
        again = true;
      } finally {
        if (pokedWhileRunning > cursor) again = true;
        pokedWhileRunning = 0;
        status.set({ pulling: false });
        await refreshCounts().catch(() => {});
      }
      // A write, a poke or Sync now that came meanwhile: its cycle runs in this same turn, so whoever
      // waits on it (syncNow, stop) waits for that cycle too.
      if (again && mayRun()) await loop();
    });
  }

  function closePokes() {
    eventsWanted = false;
    events?.close();
    events = null;
  }

  /**
   * Writes made in another tab of this browser reach the leader through Dexie's cross-tab storage events
   * (BroadcastChannel); the hub only carries this tab's own writes.
   */
  function onOutboxWrittenElsewhere(): () => void {
    const prefix = `idb://${db.name}/outbox/`;
    const listener = (parts: ObservabilitySet) => {
      if (running || !Object.keys(parts).some((k) => k.startsWith(prefix))) return;
      // Our own cycles empty the outbox (and fire this too): only a non-empty outbox is news.
      void refreshCounts()
        .then(() => {
          // A push already scheduled (this tab's own write, through the hub) is not pushed back.
          if (status.get().pending > 0 && !running && debounceTimer === null) debounce();
        })
        .catch(() => {});
    };
    Dexie.on('storagemutated', listener);
    return () => Dexie.on.storagemutated.unsubscribe(listener);
  }

  function becomeLeader() {
    leader = true;
    status.set({ leader: true });
    openPokes();
    void lane.kick();
    void run();
  }

  return {
    status,
    start() {
      if (started) return;
      started = true;
      halted = false;
      void refreshCounts().catch(() => {});
      void readMeta(db).then((m) => {
        cursor = Math.max(cursor, m.cursor);
      });
      unsubscribers = [
        env.on('online', () => {
          failures = 0;
          // Photos too: their uploads go once the cycle this starts has pushed (SPEC C9).
          lane.cutBackoffShort();
          status.set({ online: true });
          // A new stream, told the cursor the device has now (C24).
          if (leader && !paused) openPokes();
          runAfterCurrent();
        }),
        env.on('offline', () => {
          status.set({ online: false });
          // Nothing comes in while offline: a stream kept open by the browser would still carry changes.
          closePokes();
        }),
        env.on('visible', () => void run()),
        onLocalWrite(db, () => {
          void refreshCounts().catch(() => {});
          debounce();
        }),
        onOutboxWrittenElsewhere(),
      ];
      if (locks) {
        void locks.request(
          lockName,
          () =>
            new Promise<void>((release) => {
              if (!started) {
                release();
                return;
              }
              releaseLock = release;
              becomeLeader();
            }),
        );
      } else becomeLeader();
    },
    async stop() {
      started = false;
      halted = true;
      for (const u of unsubscribers) u();
      unsubscribers = [];
      clearTimer('wake');
      clearTimer('debounce');
      closePokes();
      lane.stop();
      if (locks) {
        leader = false;
        status.set({ leader: false });
      }
      await running;
      releaseLock?.();
      releaseLock = null;
    },
    async syncNow() {
      await run();
      if (!leader || paused) return;
      // Uploaded bytes flip their photo rows to present on the server: pull that too.
      if (await lane.kick()) await run();
    },
    resume() {
      if (paused === 'schema') return;
      paused = null;
      failures = 0;
      status.set({ paused: null, error: null });
      if (started) openPokes();
      void lane.kick();
      void run();
    },
  };
}
