import { useSyncExternalStore } from 'react';
import { liveQuery } from 'dexie';
import { compareTasks } from '#shared/rules/task-groups.ts';
import { searchText } from '#shared/rules/task-filters.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';

/** The device's tasks, sorted once per change of the table, with each row's search text cached. */
export interface TaskData {
  /** Every task on the device in list order, or undefined while the first read is pending. */
  tasks: TaskRow[] | undefined;
  /** The lower-cased title and description of a row (cached: filtering re-reads it per keystroke). */
  textOf: (t: TaskRow) => string;
}

/** How long a table stays read after its screen closes: going back to it within this paints at once. */
const KEEP_ALIVE_MS = 120_000;

/**
 * One live read of a whole mirrored table, shared by every mount of the screens that show it and kept for a
 * while after the last one leaves: reading and sorting 10,000 rows costs far more than the 50 ms a screen
 * change may take, so a return to /tasks renders from memory while the live query keeps it current.
 */
class TableStore<T> {
  private value: T | undefined;
  private readonly listeners = new Set<() => void>();
  private subscription: { unsubscribe(): void } | null = null;
  private stopTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly read: () => Promise<unknown[]>,
    private readonly prepare: (rows: unknown[]) => T,
  ) {}

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    if (this.stopTimer !== null) clearTimeout(this.stopTimer);
    this.stopTimer = null;
    this.subscription ??= liveQuery(this.read).subscribe({
      next: (rows) => {
        this.value = this.prepare(rows);
        for (const l of this.listeners) l();
      },
      error: (err: unknown) => {
        console.error('tasks: live read failed', err);
        this.stop();
      },
    });
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      const timer = setTimeout(() => this.stop(), KEEP_ALIVE_MS);
      (timer as { unref?: () => void }).unref?.();
      this.stopTimer = timer;
    };
  };

  readonly get = () => this.value;

  private stop() {
    this.subscription?.unsubscribe();
    this.subscription = null;
    // Unwatched data may be stale: the next subscriber waits for a fresh read.
    this.value = undefined;
  }
}

const EMPTY: TaskData = { tasks: undefined, textOf: searchText };

function prepareTasks(rows: unknown[]): TaskData {
  const tasks = (rows as TaskRow[]).sort(compareTasks);
  const cache = new WeakMap<TaskRow, string>();
  const textOf = (t: TaskRow) => {
    let s = cache.get(t);
    if (s === undefined) cache.set(t, (s = searchText(t)));
    return s;
  };
  return { tasks, textOf };
}

const sortProjects = (rows: unknown[]) =>
  (rows as ProjectRow[]).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || (a.id < b.id ? -1 : 1));

const taskStores = new WeakMap<SyncDb, TableStore<TaskData>>();
const projectStores = new WeakMap<SyncDb, TableStore<ProjectRow[]>>();

function storeOf<T>(
  map: WeakMap<SyncDb, TableStore<T>>,
  db: SyncDb,
  make: () => TableStore<T>,
): TableStore<T> {
  let store = map.get(db);
  if (!store) map.set(db, (store = make()));
  return store;
}

/**
 * Every task on the device, sorted, re-read when the table changes (never per keystroke): the filters run
 * in memory over it (docs/decisions/010-task-management-reads-and-bulk-writes.md).
 */
export function useTaskData(db: SyncDb): TaskData {
  const store = storeOf(taskStores, db, () => new TableStore(() => db.tasks.toArray(), prepareTasks));
  return useSyncExternalStore(store.subscribe, store.get) ?? EMPTY;
}

/** Every project on the device (a company has few), by name, or undefined while the first read is pending. */
export function useProjectList(db: SyncDb): ProjectRow[] | undefined {
  const store = storeOf(projectStores, db, () => new TableStore(() => db.projects.toArray(), sortProjects));
  return useSyncExternalStore(store.subscribe, store.get);
}

/**
 * `fn` remembering its last answer across mounts: it runs again only when one of the first `keyCount`
 * arguments changes (by identity). The rest are inputs the key already stands for (`now` for its day).
 */
export function lastAnswer<A extends readonly unknown[], R>(
  keyCount: number,
  fn: (...args: A) => R,
): (...args: A) => R {
  let key: unknown[] | null = null;
  let value: R;
  return (...args: A): R => {
    const next = args.slice(0, keyCount);
    if (key && next.every((a, i) => Object.is(a, key![i]))) return value;
    value = fn(...args);
    key = next;
    return value;
  };
}
