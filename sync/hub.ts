/**
 * A tiny in-memory event hub between `mutate` and the sync engine of the same tab: a committed local write
 * tells the engine to push soon (debounced there). Keyed by the database object, so two devices simulated
 * in one process never hear each other.
 */
type Listener = () => void;

const listeners = new WeakMap<object, Set<Listener>>();

/** Calls `fn` after every committed local write to `db`; returns the unsubscribe function. */
export function onLocalWrite(db: object, fn: Listener): () => void {
  let set = listeners.get(db);
  if (!set) {
    set = new Set();
    listeners.set(db, set);
  }
  set.add(fn);
  return () => set.delete(fn);
}

/** Tells the listeners of `db` that a local write committed. A listener that throws does not stop the others. */
export function notifyLocalWrite(db: object): void {
  for (const fn of listeners.get(db) ?? []) {
    try {
      fn();
    } catch (err) {
      console.error('sync: local write listener failed', err);
    }
  }
}
