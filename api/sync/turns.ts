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
export function inSyncTurn<T>(work: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_WAITING_SYNC) return Promise.reject(unavailable());
  waiting++;
  const done = () => {
    waiting--;
  };
  const turn = queue
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(
      () => {
        // The next turn waits for this one to start, not to finish: on SQLite its transaction has already
        // run when `work` returns; on PostgreSQL it waits on the database, where other companies' pushes and
        // this company's pulls need not queue behind it (ADR 027). It counts as waiting until it is done, so
        // the cap holds there too (a request waiting on the database holds its body as one in the queue).
        const answer = work();
        void answer.then(done, done);
        return { answer };
      },
      (err: unknown) => {
        done();
        throw err;
      },
    );
  queue = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn.then(({ answer }) => answer);
}

/**
 * Whether half the sync turns are taken: work that a device can do itself (the pull an event stream would
 * carry, SPEC L16) then leaves the rest to pushes and pulls, which would otherwise be refused with 503.
 */
export const syncTurnsHalfFull = () => waiting >= MAX_WAITING_SYNC / 2;
