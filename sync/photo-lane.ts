import { Dexie } from 'dexie';
import { requestBackgroundSync } from './background.ts';
import type { BlobRecord, BlobStatus, SyncDb } from './db.ts';
import { realTimers, type Timers } from './env.ts';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  requestJson,
  SyncHttpError,
  type BackoffOptions,
  type FetchLike,
} from './http.ts';

/** An upload that sends no byte for this long is given up and retried later (SPEC C20). */
export const UPLOAD_STALL_MS = 60_000;

/**
 * Where the upload's progress cannot be seen (fetch), the time its bytes may take on top of the stall wait:
 * 2 KiB/s, slower than a usable 2G link (SPEC C20).
 */
const UPLOAD_FLOOR_BYTES_PER_S = 2048;

/** Default byte cap of photo bytes kept on the device; only uploaded blobs are evicted to meet it. */
export const DEFAULT_BLOB_CAP_BYTES = 200 * 1024 * 1024;

/** What the photo lane needs; the engine passes its own fetch, clock, random source, timers and pause state. */
export interface PhotoLaneOptions {
  db: SyncDb;
  baseUrl: string;
  fetch: FetchLike;
  now: () => number;
  random: () => number;
  timers?: Timers;
  backoff?: BackoffOptions;
  capBytes?: number;
  /** How long an upload may send nothing before it is given up (default UPLOAD_STALL_MS, SPEC C20). */
  requestTimeoutMs?: number;
  /** True while the engine is paused (401, 426): the lane sends nothing either. */
  isPaused: () => boolean;
  /** The server answered 401/403/426 to an upload: the engine pauses everything. */
  onFatal: (err: SyncHttpError) => void;
  /** Something changed (an upload finished or failed): counts and a pull are due. */
  onChange: (uploaded: boolean) => void;
}

/** The photo lane: uploads pending photo bytes one at a time, each with its own backoff. */
export interface PhotoLane {
  /** Runs a pass over the blobs that are due (or joins the running one); resolves true if any went up. */
  kick(): Promise<boolean>;
  /**
   * The next pass takes every pending blob, whatever its retry time (SPEC C9): the device is back online,
   * or a session starts. Nothing is written: a blob that fails again gets its next retry time as usual.
   */
  cutBackoffShort(): void;
  /** Cancels the retry timer. */
  stop(): void;
}

/**
 * Creates the photo lane (DESIGN.md section 7). Bytes go up with `PUT /api/sync/blobs/{sha256}`, one at a
 * time, oldest retry time first. A failure sets that blob's own retry time (exponential backoff with
 * jitter) and the pass moves on, so one failing photo never holds back the others, and the data queue
 * never waits for photos at all. A refused blob (400 hash mismatch, 413, 415) is marked `rejected` and
 * reported in `syncIssues`. A timer wakes the lane at the next retry time without any new write.
 */
export function createPhotoLane(options: PhotoLaneOptions): PhotoLane {
  const { db } = options;
  const timers = options.timers ?? realTimers;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let running: Promise<boolean> | null = null;
  let again = false;
  let timer: unknown = null;
  let stopped = false;
  // A new lane is a new session or page: photos that failed before (a weak signal, a sign-out) go at the
  // first pass, not at the retry time an earlier session set, which can be minutes away.
  let ignoreRetryTimes = true;

  async function dueKeys(now: number): Promise<string[]> {
    return (await db.blobs
      .where('[status+nextAttemptAt]')
      .between(['pending', Dexie.minKey], ['pending', now], true, true)
      .primaryKeys()) as string[];
  }

  async function nextWake(now: number): Promise<number | null> {
    // Index keys only: reading the records would load their bytes.
    const keys = await db.blobs
      .where('[status+nextAttemptAt]')
      .between(['pending', now], ['pending', Dexie.maxKey], false, true)
      .limit(1)
      .keys();
    const key = keys[0] as [string, number] | undefined;
    return key ? key[1] : null;
  }

  /**
   * SPEC B2/C9: the server takes bytes only for a photo row it has, so a blob waits until the create of a
   * photo carrying its hash has left the outbox. A blob whose photo is gone from the device (its create was
   * rejected and sits in syncIssues) waits too: a retry of that issue needs the bytes.
   */
  async function createAcknowledged(sha: string): Promise<boolean> {
    const ids = await db.photos.where('sha256').equals(sha).primaryKeys();
    if (ids.length === 0) return false;
    const pending = await db.outbox
      .where('rowId')
      .anyOf(ids)
      .filter((e) => e.table === 'photos' && e.op === 'create')
      .count();
    return pending < ids.length;
  }

  async function upload(blob: BlobRecord): Promise<'uploaded' | 'failed' | 'fatal'> {
    uploadProgress.set(blob.sha256, 0);
    // SPEC C20: a slow link is not a dead one. A fixed 60 s for the whole PUT aborted every upload of a
    // 1 MB photo on a link under ~140 kbit/s at about 90% and started it over, forever ("Uploading 91%",
    // then "On this device", again and again). The upload is given up only after `stallMs` without a byte
    // sent; where no progress is reported (the service worker's fetch) it gets that plus the time its
    // bytes take at a floor rate.
    const stallMs = options.requestTimeoutMs ?? UPLOAD_STALL_MS;
    const stalled = new AbortController();
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    const giveUpIn = (ms: number) => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(
        () => stalled.abort(new DOMException('The upload made no progress', 'TimeoutError')),
        ms,
      );
    };
    try {
      const progressed = xhrWithUploadProgress((sent) => {
        giveUpIn(stallMs);
        uploadProgress.set(blob.sha256, sent);
      });
      giveUpIn(progressed ? stallMs : stallMs + (blob.bytes.byteLength / UPLOAD_FLOOR_BYTES_PER_S) * 1000);
      await requestJson(progressed ?? options.fetch, `${options.baseUrl}/api/sync/blobs/${blob.sha256}`, {
        method: 'PUT',
        headers: { 'content-type': blob.mimeType || 'application/octet-stream' },
        body: blob.bytes,
        signal: stalled.signal,
      });
      await db.blobs.update(blob.sha256, { status: 'uploaded', attempts: 0, nextAttemptAt: 0 });
      return 'uploaded';
    } catch (err) {
      if (!(err instanceof SyncHttpError)) throw err;
      const now = options.now();
      if (err.kind === 'unauthorized' || err.kind === 'forbidden' || err.kind === 'schema') {
        options.onFatal(err);
        return 'fatal';
      }
      const permanent = err.status === 400 || err.status === 413 || err.status === 415;
      if (permanent) {
        await db.transaction('rw', db.blobs, db.syncIssues, async () => {
          await db.blobs.update(blob.sha256, { status: 'rejected' });
          await db.syncIssues.add({
            kind: 'blob',
            sha256: blob.sha256,
            code: err.code ?? `HTTP_${err.status ?? 0}`,
            message: err.message,
            createdAt: now,
          });
        });
      } else {
        const attempts = blob.attempts + 1;
        await db.blobs.update(blob.sha256, {
          attempts,
          nextAttemptAt: now + backoffDelay(attempts, options.random, backoff),
        });
        // Should the page close before the retry, the service worker uploads it when the signal returns.
        requestBackgroundSync();
      }
      return 'failed';
    } finally {
      clearTimeout(stallTimer);
      uploadProgress.delete(blob.sha256);
    }
  }

  async function pass(): Promise<boolean> {
    let uploaded = false;
    let failed = false;
    // Taken before the read: a cut that comes while this pass reads is kept for the next pass.
    const all = ignoreRetryTimes;
    ignoreRetryTimes = false;
    for (const sha of await dueKeys(all ? Number.MAX_SAFE_INTEGER : options.now())) {
      if (stopped || options.isPaused()) return uploaded;
      if (!(await createAcknowledged(sha))) continue;
      const blob = await db.blobs.get(sha);
      if (!blob || blob.status !== 'pending') continue;
      const outcome = await upload(blob);
      if (outcome === 'fatal') return uploaded;
      if (outcome === 'uploaded') uploaded = true;
      else failed = true;
    }
    if (uploaded) await evictUploadedBlobs(db, options.capBytes ?? DEFAULT_BLOB_CAP_BYTES);
    if (uploaded || failed) options.onChange(uploaded);
    schedule(await nextWake(options.now()));
    return uploaded;
  }

  function schedule(at: number | null) {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    if (at === null || stopped) return;
    timer = timers.setTimeout(
      () => {
        timer = null;
        void kick();
      },
      Math.max(0, at - options.now()),
    );
  }

  function kick(): Promise<boolean> {
    stopped = false;
    if (options.isPaused()) return Promise.resolve(false);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let uploaded = false;
      try {
        do {
          again = false;
          if (await pass()) uploaded = true;
        } while (again && !stopped && !options.isPaused());
      } catch (err) {
        // Sign-out closes the device database under a pass still running (an upload on its way): the bytes
        // stay pending and go at the next session (C9). Not a fault, and not an unhandled rejection.
        if (!(err instanceof Dexie.DatabaseClosedError)) throw err;
      } finally {
        running = null;
      }
      return uploaded;
    })();
    return running;
  }

  return {
    kick,
    cutBackoffShort() {
      ignoreRetryTimes = true;
    },
    stop() {
      stopped = true;
      schedule(null);
    },
  };
}

/**
 * Evicts uploaded photo bytes, least recently used first, until everything kept fits in `capBytes`. Pending
 * bytes are never evicted: they are the only copy. Returns the number of blobs evicted.
 */
export async function evictUploadedBlobs(db: SyncDb, capBytes: number): Promise<number> {
  return db.transaction('rw', db.blobs, async () => {
    const sizes = (await db.blobs.orderBy('size').keys()) as number[];
    let total = sizes.reduce((a, b) => a + b, 0);
    if (total <= capBytes) return 0;
    const lru = (await db.blobs
      .where('[status+lastUsedAt]')
      .between(['uploaded', Dexie.minKey], ['uploaded', Dexie.maxKey])
      .primaryKeys()) as string[];
    let evicted = 0;
    for (const sha of lru) {
      if (total <= capBytes) break;
      const blob = await db.blobs.get(sha);
      if (!blob || blob.status !== 'uploaded') continue;
      await db.blobs.delete(sha);
      total -= blob.size;
      evicted++;
    }
    return evicted;
  });
}

/**
 * The blob statuses whose bytes are only on this device: waiting for the photo lane, or refused by the
 * server (kept for a retry from "Sync issues").
 */
export const UNSENT_BLOB_STATUSES = ['pending', 'rejected'] as const satisfies readonly BlobStatus[];

/** The SHA-256 of every blob whose bytes have not reached the server (`UNSENT_BLOB_STATUSES`). */
export async function unsentBlobKeys(
  db: SyncDb,
  statuses: readonly BlobStatus[] = UNSENT_BLOB_STATUSES,
): Promise<string[]> {
  // Keys only: reading blob records would load their bytes.
  return (await db.blobs.where('status').anyOf(statuses).primaryKeys()) as string[];
}

/**
 * The ids of the photos on this device whose bytes have not reached the server, for every place that tells
 * the user a photo is not sent yet (the "Waiting to sync" markers, Sign Out). By photo, not by blob: photos
 * of the same bytes share one blob by its hash, and the user took each of them. `statuses` narrows it
 * (Sign Out counts only the bytes that will go up on their own: a refused photo waits in "Sync issues").
 */
export async function photosWithUnsentBytes(
  db: SyncDb,
  statuses: readonly BlobStatus[] = UNSENT_BLOB_STATUSES,
): Promise<string[]> {
  const unsent = await unsentBlobKeys(db, statuses);
  if (unsent.length === 0) return [];
  return db.photos.where('sha256').anyOf(unsent).primaryKeys();
}

/**
 * The bytes of a photo if the device still has them, marking them recently used (LRU). Returns null when
 * they were evicted: the caller then loads the server's copy.
 */
export async function readBlob(db: SyncDb, sha256: string): Promise<BlobRecord | null> {
  const blob = await db.blobs.get(sha256);
  if (!blob) return null;
  await db.blobs.update(sha256, { lastUsedAt: db.now() });
  return blob;
}

/**
 * The photo uploads running in this page, by sha256, with the share of bytes sent (0 to 1): what a photo's
 * card and the sync status show as "Uploading 40%". In memory only: an upload belongs to one page.
 */
export const uploadProgress = (() => {
  const sent = new Map<string, number>();
  const listeners = new Set<() => void>();
  let snapshot: ReadonlyMap<string, number> = new Map();
  const changed = () => {
    snapshot = new Map(sent);
    for (const l of listeners) l();
  };
  return {
    set(sha256: string, fraction: number) {
      sent.set(sha256, fraction);
      changed();
    },
    delete(sha256: string) {
      if (sent.delete(sha256)) changed();
    },
    /** The current uploads (a new map after every change, for `useSyncExternalStore`). */
    snapshot: (): ReadonlyMap<string, number> => snapshot,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
})();

/**
 * `fetch` reports no upload progress, XMLHttpRequest does: in a page (not in the service worker, which has
 * no XHR, nor in tests that inject their own fetch without XHR) the PUT goes through XHR to report it.
 * Null where there is no XHR: the caller's fetch sends the bytes, without progress.
 */
function xhrWithUploadProgress(onProgress: (fraction: number) => void): FetchLike | null {
  if (typeof XMLHttpRequest === 'undefined' || typeof window === 'undefined') return null;
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', String(url));
      xhr.withCredentials = true;
      new Headers(init.headers).forEach((value, key) => xhr.setRequestHeader(key, value));
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        resolve(new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers }));
      };
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
