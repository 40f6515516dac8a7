import { startTransition } from 'react';
import { liveQuery } from 'dexie';
import { useObservable } from 'dexie-react-hooks';

type Querier<T> = () => Promise<T> | T;

interface Observable<T> {
  subscribe(next: (value: T) => void, error?: (err: unknown) => void): { unsubscribe(): void };
}

/**
 * The query's results after its first, each delivered to React inside `startTransition`. Those arrive on
 * their own: a pulled page applied, another tab's write. Handed over plainly, React renders each as one
 * blocking task, and a first download re-rendered the dashboard in tasks of 100 ms and more on a phone
 * (budget B10, total blocking time). As a transition the render yields to input every few ms. The first
 * result is what the user just opened and renders at once: as a transition it was restarted by every
 * other device read landing meanwhile (React renders pending transitions together), and opening /tasks
 * over 10,000 rows took twice as long (budget B13). What a user does still repaints at once: a tap's own
 * state updates are urgent, and forms show a saved edit from the write itself (`useOptimisticRows`).
 */
function inTransition<T>(source: Observable<T>): Observable<T> {
  return {
    subscribe: (next, error) => {
      let first = true;
      return source.subscribe(
        (value) => {
          if (first) {
            first = false;
            next(value);
          } else startTransition(() => next(value));
        },
        error && ((err) => startTransition(() => error(err))),
      );
    },
  };
}

/** `useLiveQuery` of dexie-react-hooks (same arguments and result) whose updates render as transitions. */
export function useLiveQuery<T>(querier: Querier<T>, deps?: unknown[]): T | undefined;
export function useLiveQuery<T, D>(querier: Querier<T>, deps: unknown[], defaultResult: D): T | D;
export function useLiveQuery<T, D>(
  querier: Querier<T>,
  deps: unknown[] = [],
  defaultResult?: D,
): T | D | undefined {
  return useObservable(() => inTransition(liveQuery(querier)), deps, defaultResult);
}
