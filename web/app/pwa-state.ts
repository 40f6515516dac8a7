import { useSyncExternalStore } from 'react';

/** What the service worker registration reports to the UI (kept apart from `virtual:pwa-register` for tests). */
export interface PwaState {
  /** A new version is installed and waiting. */
  needRefresh: boolean;
  /** The app shell is cached and works offline. */
  offlineReady: boolean;
}

let state: PwaState = { needRefresh: false, offlineReady: false };
let updater: ((reload?: boolean) => Promise<void>) | null = null;
const listeners = new Set<() => void>();

export function setPwaState(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function setUpdater(fn: (reload?: boolean) => Promise<void>): void {
  updater = fn;
}

/** Activates the waiting worker and reloads the page (the user chose Reload). */
export async function applyUpdate(): Promise<void> {
  if (updater) await updater(true);
  else window.location.reload();
}

/**
 * Asks the browser to look for a new service worker now (not at the hourly check): the server has said this
 * app is too old to sync (426, sync/SPEC.md P15), so a new version is out; when it is installed the update
 * prompt appears through `onNeedRefresh` as for any update.
 */
export function checkForUpdate(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker
    .getRegistration()
    .then((r) => r?.update())
    .catch(() => {});
}

export function usePwaState(): PwaState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => state,
  );
}
