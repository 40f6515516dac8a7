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
