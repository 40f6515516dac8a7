/**
 * What the engine needs from its host, as small interfaces: the browser provides them all; tests inject
 * fakes (a controllable network flag, a fake clock's timers, an in-memory lock manager).
 */

/** setTimeout/clearTimeout, injectable so tests can drive retries with a fake clock. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global timers (the default). */
export const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Network and visibility signals of the page. */
export interface SyncEnvironment {
  isOnline(): boolean;
  isVisible(): boolean;
  /** Calls `fn` on the event; returns the unsubscribe function. */
  on(event: 'online' | 'offline' | 'visible', fn: () => void): () => void;
}

/** `navigator.onLine`, the `online`/`offline` events and `visibilitychange`; always online and visible elsewhere. */
export function browserEnvironment(): SyncEnvironment {
  const win = typeof window === 'undefined' ? undefined : window;
  const doc = typeof document === 'undefined' ? undefined : document;
  return {
    isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
    isVisible: () => !doc || doc.visibilityState !== 'hidden',
    on(event, fn) {
      if (event === 'visible') {
        if (!doc) return () => {};
        const listener = () => {
          if (doc.visibilityState === 'visible') fn();
        };
        doc.addEventListener('visibilitychange', listener);
        return () => doc.removeEventListener('visibilitychange', listener);
      }
      if (!win) return () => {};
      win.addEventListener(event, fn);
      return () => win.removeEventListener(event, fn);
    },
  };
}

/** The part of the Web Locks API the engine uses (`navigator.locks`). */
export interface LockManagerLike {
  request(name: string, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

/** `navigator.locks` when the browser has it. */
export function browserLocks(): LockManagerLike | null {
  if (typeof navigator === 'undefined') return null;
  const locks = (navigator as { locks?: LockManagerLike }).locks;
  return locks ?? null;
}

/** The part of `EventSource` the engine uses. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
}

export type EventSourceFactory = (url: string) => EventSourceLike;

/** `new EventSource(url)` (same-origin, so the session cookie goes along) when the browser has it. */
export function browserEventSource(): EventSourceFactory | null {
  if (typeof EventSource === 'undefined') return null;
  return (url) => {
    const source = new EventSource(url);
    return {
      addEventListener: (type, listener) =>
        source.addEventListener(type, (event) => listener({ data: String((event as MessageEvent).data) })),
      close: () => source.close(),
    };
  };
}
