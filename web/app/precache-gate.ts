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
   * (ADR 025). So a signed-in page waits until its first sync cycle is over, at most `limitMs`; a
   * signed-out page (sign-in, nothing to download) and a page whose session is unknown (the request
   * failed) do not wait for it. Every page waits for the network.
   */
  whenMayStart(signedIn: Promise<boolean>, limitMs?: number): Promise<void>;
}

/** Whether the browser has a network, and a promise of the moment it has one again. */
export interface NetworkState {
  isOnline(): boolean;
  whenOnline(): Promise<void>;
}

const browserNetwork: NetworkState = {
  isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  whenOnline: () =>
    new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true })),
};

export function createPrecacheGate(network: NetworkState = browserNetwork): PrecacheGate {
  let settle: () => void = () => {};
  const firstDownload = new Promise<void>((resolve) => (settle = resolve));
  // Registered with no network, the worker's script cannot be fetched: the registration fails (an error in
  // the console) and is not tried again in this page. So it waits for the network too.
  const online = () => (network.isOnline() ? undefined : network.whenOnline());
  return {
    firstDownloadSettled: () => settle(),
    whenMayStart: (signedIn, limitMs = PRECACHE_WAIT_MS) =>
      signedIn
        .then(
          (yes) => {
            if (!yes) return;
            let timer: ReturnType<typeof setTimeout> | undefined;
            const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
            return Promise.race([firstDownload, limit]).finally(() => clearTimeout(timer));
          },
          () => undefined,
        )
        .then(online),
  };
}

/** The page's gate: the local-data provider settles it, main.tsx waits on it before registering the worker. */
export const precacheGate = createPrecacheGate();

/** Registrations tried again after a failed one, at most. */
export const REGISTER_RETRIES = 3;
/** The pause before trying again a registration that failed while the browser said it was online. */
export const REGISTER_RETRY_MS = 30_000;

/**
 * When to try again a registration whose worker script could not be fetched, or null to stop. The gate
 * registers only with a network, but the network can drop between that check and the script's fetch (a
 * phone leaving coverage right after its first download); without another try the page would have no
 * offline copy until its next load. Offline now: when the network is back. Online: after a pause (a
 * server or network hiccup). `failures` counts the failed registrations so far.
 */
export function nextRegisterTry(
  failures: number,
  network: NetworkState = browserNetwork,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> | null {
  if (failures > REGISTER_RETRIES) return null;
  return network.isOnline() ? wait(REGISTER_RETRY_MS) : network.whenOnline();
}
