import { useSyncExternalStore } from 'react';

function subscribeOnline(notify: () => void) {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
}
const browserOnline = () => navigator.onLine;

/**
 * Whether the browser says it has a network. Only a hint (a captive Wi-Fi says online): a screen also
 * treats a failed call as offline. Screens that need the server for a write turn it off with a reason.
 */
export function useBrowserOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, browserOnline, () => true);
}
