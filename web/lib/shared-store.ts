import { liveQuery } from 'dexie';

/**
 * A value read from the device for every component that shows it: the read starts with the first
 * subscriber and stops `keepAliveMs` after the last one leaves (a return within that paints at once).
 * Components read it with `useSyncExternalStore(store.subscribe, ...)`.
 */
export abstract class SharedStore<T> {
  protected value: T | undefined;
  private readonly listeners = new Set<() => void>();
  private running = false;
  private stopTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly keepAliveMs: number) {}

  protected abstract start(): void;
  protected abstract stop(): void;

  protected publish(value: T) {
    this.value = value;
    for (const l of this.listeners) l();
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    if (this.stopTimer !== null) clearTimeout(this.stopTimer);
    this.stopTimer = null;
    if (!this.running) {
      this.running = true;
      this.start();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      const timer = setTimeout(() => this.halt(), this.keepAliveMs);
      (timer as { unref?: () => void }).unref?.();
      this.stopTimer = timer;
    };
  };

  readonly get = () => this.value;

  protected halt() {
    this.running = false;
    this.stop();
    // Unwatched data may be stale: the next subscriber waits for a fresh read.
    this.value = undefined;
  }
}

/** One Dexie live query shared by its subscribers: `read` runs again whenever what it read changes. */
export class LiveQueryStore<R, T> extends SharedStore<T> {
  private subscription: { unsubscribe(): void } | null = null;

  constructor(
    private readonly read: () => Promise<R>,
    private readonly prepare: (result: R) => T,
    keepAliveMs: number,
  ) {
    super(keepAliveMs);
  }

  protected start() {
    this.subscription = liveQuery(this.read).subscribe({
      next: (result) => this.publish(this.prepare(result)),
      error: (err: unknown) => {
        console.error('A live read of the device failed', err);
        this.halt();
      },
    });
  }

  protected stop() {
    this.subscription?.unsubscribe();
    this.subscription = null;
  }
}
