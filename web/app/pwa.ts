/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';
import { afterPaint } from '#web/lib/after-paint.ts';
import { setPwaState, setUpdater } from './pwa-state.ts';

/** How often an open app looks for a new version (the browser also checks on navigation). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** How long after the page's load event the worker waits at most for a quiet moment. */
const REGISTER_LIMIT_MS = 3_000;

/**
 * Registers the service worker from a module (no inline script, so the CSP needs no nonce) with
 * `registerType: 'prompt'`: a new version waits until the user picks Reload (DESIGN.md section 12).
 * Registered once the page has loaded and painted: its install downloads the whole precache (about 1.4 MB),
 * which must not compete with the first screen's own requests (budget B10).
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const later = () => afterPaint(register, REGISTER_LIMIT_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

function register(): void {
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
    onRegisterError: (err: unknown) => console.warn('Service worker registration failed', err),
  });
  setUpdater(update);
}
