/**
 * Background Sync (SPEC C14), the page's side: where the browser has it (Chromium), a queued write, and a
 * push that failed for want of a connection, register a one-off sync; the service worker then pushes the
 * outbox when the connection returns, even with every page closed (`sync/background-drain.ts`). Elsewhere
 * nothing changes: the page's own triggers remain.
 */

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
  // The worker drains the outbox itself; a registration from inside its own sync event could loop.
  if (inServiceWorker()) return;
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

function inServiceWorker(): boolean {
  const scope = (globalThis as { ServiceWorkerGlobalScope?: abstract new () => unknown })
    .ServiceWorkerGlobalScope;
  return scope !== undefined && globalThis instanceof scope;
}
