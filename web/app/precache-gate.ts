import type { SyncStatus } from '#sync/engine.ts';

/**
 * The longest the service worker's registration waits for a signed-in user's first download. A download
 * that never ends (another tab syncs, the first screen never shows) must not leave the app without its
 * offline copy for long.
 */
export const PRECACHE_WAIT_MS = 15_000;

/**
 * Whether a sync status shows the first cycle over: the device is up to date (a pull reached the end now or
 * on an earlier visit), or it cannot go on now (offline, a failure, paused for the user). A cycle still
 * pulling is never over.
 */
export function firstCycleOver(status: SyncStatus): boolean {
  if (status.pulling) return false;
  return status.lastSyncedAt !== null || status.error !== null || status.paused !== null || !status.online;
}

export interface PrecacheGate {
  /** Says this page's first sync cycle has ended, one way or another. Later calls do nothing. */
  firstDownloadSettled(): void;
  /**
   * When the service worker may be registered. Its first install downloads and stores every asset of the
   * app (86 files, 449 KiB as served), on the network and the CPU that the first download of the user's
   * data needs too; on a 2-core machine the page's main thread got under half the CPU while both ran
   * (ADR 025). So a signed-in page waits until its first sync cycle is over, at most `limitMs`; a signed-out page (sign-in, nothing
   * to download) and a page whose session is unknown (the request failed) do not wait.
   */
  whenMayStart(signedIn: Promise<boolean>, limitMs?: number): Promise<void>;
}

export function createPrecacheGate(): PrecacheGate {
  let settle: () => void = () => {};
  const firstDownload = new Promise<void>((resolve) => (settle = resolve));
  return {
    firstDownloadSettled: () => settle(),
    whenMayStart: (signedIn, limitMs = PRECACHE_WAIT_MS) =>
      signedIn.then(
        (yes) => {
          if (!yes) return;
          let timer: ReturnType<typeof setTimeout> | undefined;
          const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
          return Promise.race([firstDownload, limit]).finally(() => clearTimeout(timer));
        },
        () => undefined,
      ),
  };
}

/** The page's gate: the local-data provider settles it, main.tsx waits on it before registering the worker. */
export const precacheGate = createPrecacheGate();
