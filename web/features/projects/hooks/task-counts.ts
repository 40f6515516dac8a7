import { useSyncExternalStore } from 'react';
import { liveQuery } from 'dexie';
import type { SyncDb } from '#sync/db.ts';

/**
 * The number of tasks of every project on the device, from ONE live query for the whole screen, read by
 * each card for its own project.
 *
 * A live query per card cost most when the screen closed: Dexie keeps its listeners in one list that it
 * filters and rebuilds on every unsubscribe, so closing /projects over 50 projects spent about 7 ms of
 * the tap to /tasks on that alone (about 28 ms at budget B13's 4x CPU). A card subscribes to this store
 * with `useSyncExternalStore` and selects its own number, so a count that changes redraws its own card
 * only, never the others (budget B7).
 */
export interface TaskCounts {
  subscribe(onChange: () => void): () => void;
  /** The project's task count, or undefined until the first read has answered. */
  count(projectId: string): number | undefined;
}

async function readCounts(db: SyncDb): Promise<ReadonlyMap<string, number>> {
  const ids = (await db.projects.toCollection().primaryKeys()).map(String);
  // One count of the projectId index per project: no task row is read.
  const counts = await Promise.all(ids.map((id) => db.tasks.where('projectId').equals(id).count()));
  return new Map(ids.map((id, i) => [id, counts[i]!]));
}

/**
 * A store over the device's task counts. It reads while anyone listens: the live query starts with the
 * first listener and stops with the last one, so a closed screen leaves nothing subscribed.
 */
export function taskCountsOf(db: SyncDb): TaskCounts {
  let counts: ReadonlyMap<string, number> | undefined;
  const listeners = new Set<() => void>();
  let query: { unsubscribe(): void } | undefined;
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      query ??= liveQuery(() => readCounts(db)).subscribe({
        next: (next) => {
          counts = next;
          for (const listener of listeners) listener();
        },
        // A failed read leaves the last counts shown ("…" before the first); the next change reads again.
        error: (err: unknown) => console.error('Task counts could not be read', err),
      });
      return () => {
        listeners.delete(onChange);
        if (listeners.size > 0) return;
        query?.unsubscribe();
        query = undefined;
      };
    },
    count: (projectId) => (counts === undefined ? undefined : (counts.get(projectId) ?? 0)),
  };
}

/** The number of tasks of one project, from the screen's shared counts. */
export function useTaskCount(counts: TaskCounts, projectId: string): number | undefined {
  return useSyncExternalStore(counts.subscribe, () => counts.count(projectId));
}
