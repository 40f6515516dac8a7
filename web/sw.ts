/// <reference lib="webworker" />
/**
 * The service worker (built by vite-plugin-pwa's injectManifest). It does what the generated worker did
 * (DESIGN.md section 12): precache the shell and every built asset, answer navigations with /index.html
 * except under /api, never cache an /api answer, drop outdated caches, and wait for the user's Reload
 * (`registerType: 'prompt'`: no skipWaiting of its own). On top of that it answers Background Sync by
 * pushing the outbox with every page closed (sync/SPEC.md C14), and takes charge of the open pages when it
 * activates (ADR 030).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { drainOutbox, type AbortableLocks } from '../sync/background-drain.ts';
import { OUTBOX_SYNC_TAG } from '../sync/background.ts';

declare const self: ServiceWorkerGlobalScope;

/** The Background Sync event (not in TypeScript's webworker lib). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }));

// The first worker takes charge of the page that installed it: otherwise that page, left uncontrolled until
// a reload, fetched each screen's code from the network and went blank on the first screen opened offline
// (ADR 030). An update gets here only through the prompt's Reload (or with no page open), which reloads.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// The update prompt's Reload (workbox-window's messageSkipWaiting) is the only way this worker takes over.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: unknown } | null;
  if (data && data.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    drainOutbox({
      fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
      locks: self.navigator.locks as unknown as AbortableLocks,
    }).then((outcome) => {
      // A rejected promise tells the browser to fire the sync again later, with its own backoff.
      if (outcome === 'retry') throw new Error('Background sync: the server could not take the outbox yet');
    }),
  );
});
