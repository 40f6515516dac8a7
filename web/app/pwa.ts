/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';
import { nextRegisterTry } from './precache-gate.ts';
import { setPwaState, setUpdater } from './pwa-state.ts';

/** How often an open app looks for a new version (the browser also checks on navigation). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** Registrations of this page that failed so far (each is tried again, a few times: `nextRegisterTry`). */
let failedRegistrations = 0;

/**
 * Registers the service worker from a module (no inline script, so the CSP needs no nonce) with
 * `registerType: 'prompt'`: a new version waits until the user picks Reload (DESIGN.md section 12).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => setPwaState({ needRefresh: true }),
    onOfflineReady: () => setPwaState({ offlineReady: true }),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      window.setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => {});
      }, UPDATE_CHECK_MS);
    },
    onRegisterError: (err: unknown) => {
      console.warn('Service worker registration failed', err);
      void nextRegisterTry(++failedRegistrations)?.then(registerServiceWorker);
    },
  });
  setUpdater(update);
}
