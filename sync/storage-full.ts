/**
 * Whether `err` is the browser refusing a write for lack of space (IndexedDB's QuotaExceededError, which
 * Dexie passes on as such or as the `inner` cause of a transaction's AbortError). A full phone is common in
 * the field, and the error's own text is its bare name, which tells a crew member nothing.
 */
export function isStorageFull(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if ((e as { name?: unknown }).name === 'QuotaExceededError') return true;
    e = (e as { inner?: unknown }).inner;
  }
  return false;
}

/** What the user reads when a local write found the device full: nothing of it was saved. */
export const STORAGE_FULL_MESSAGE =
  'Nothing was saved: this device is out of storage space. Free up space on it (photos, videos or apps ' +
  'you no longer need) and try again.';

/** What the sync status says when a download could not be stored for lack of space. */
export const STORAGE_FULL_SYNC_MESSAGE = 'this device is out of storage space; free up space on it';
