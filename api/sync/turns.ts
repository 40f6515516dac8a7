import { unavailable } from './push.ts';

/** Sync requests waiting beyond this answer 503 at once (SPEC P9, L11): the queue holds their bodies. */
export const MAX_WAITING_SYNC = 256;
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

/**
 * Runs `work` (a push or a pull) when it is its turn: one per event-loop iteration, in arrival order.
 * Each is one synchronous transaction of tens of milliseconds. Run as they arrive, every push ready in a
 * poll phase runs back to back (50 writers: 1.5 s), and each step of a sign-in (body read, hash done,
 * session write) waits behind all of them: p99 7.5 s with 50 writers (budget B14). Taking turns through
 * `setImmediate` lets the poll phase run between two of them, so any other request waits for at most one
 * per step, and the sync requests keep their throughput.
 */
export function inSyncTurn<T>(work: () => T): Promise<T> {
  if (waiting >= MAX_WAITING_SYNC) return Promise.reject(unavailable());
  waiting++;
  const turn = queue
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(() => {
      waiting--;
      return work();
    });
  queue = turn.catch(() => undefined);
  return turn;
}
