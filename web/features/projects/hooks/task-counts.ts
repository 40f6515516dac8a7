import { useSyncExternalStore } from 'react';
import type { SyncDb } from '#sync/db.ts';
import { LiveQueryStore } from '#web/lib/shared-store.ts';

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
export type TaskCounts = LiveQueryStore<ReadonlyMap<string, number>, ReadonlyMap<string, number>>;

async function readCounts(db: SyncDb): Promise<ReadonlyMap<string, number>> {
  const ids = (await db.projects.toCollection().primaryKeys()).map(String);
  // One count of the projectId index per project: no task row is read.
  const counts = await Promise.all(ids.map((id) => db.tasks.where('projectId').equals(id).count()));
  return new Map(ids.map((id, i) => [id, counts[i]!]));
}

/**
 * The screen's store of task counts. It stops reading as soon as its last card has gone (no keep-alive):
 * a closed screen leaves nothing subscribed, while a switch between cards and list keeps the read going.
 */
export function taskCountsOf(db: SyncDb): TaskCounts {
  return new LiveQueryStore(
    () => readCounts(db),
    (counts) => counts,
    0,
  );
}

/** The number of tasks of one project, or undefined until the first read has answered. */
export function useTaskCount(counts: TaskCounts, projectId: string): number | undefined {
  return useSyncExternalStore(counts.subscribe, () => {
    const all = counts.get();
    return all === undefined ? undefined : (all.get(projectId) ?? 0);
  });
}
