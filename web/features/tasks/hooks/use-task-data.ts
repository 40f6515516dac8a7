import { useSyncExternalStore } from 'react';
import { Dexie } from 'dexie';
import { dueDay } from '#shared/rules/dates.ts';
import { searchText } from '#shared/rules/task-filters.ts';
import {
  compareTasks,
  indexTasks,
  patchTaskIndex,
  type GroupableTask,
  type TaskIndex,
} from '#shared/rules/task-groups.ts';
import type { ProjectRow, SyncDb, TaskRow, UserRow } from '#sync/db.ts';
import { peopleOf, type People } from '#web/features/projects/utils/assignee-name.ts';
import { watchTable, type TableChange } from '#web/lib/table-changes.ts';
import { LiveQueryStore, SharedStore } from '#web/lib/shared-store.ts';

/** The device's tasks in list order and grouped, with what the filters and counts read of each row. */
export interface TaskData {
  /** Every task on the device, in list order and per group, or undefined while the first read is pending. */
  index: TaskIndex<TaskRow> | undefined;
  /** Every task on the device in list order (`index.sorted`). */
  tasks: TaskRow[] | undefined;
  /** The lower-cased title and description of a row (computed once per row version). */
  textOf: (t: TaskRow) => string;
  /** The calendar day a row is due, or null (computed once per row version). */
  dayOf: (t: GroupableTask) => string | null;
}

/** How long a table stays read after /tasks closes: going back to it within this paints at once. */
const KEEP_ALIVE_MS = 120_000;

/** Rows per read of a whole-table load: each page is its own short task, never one long one. */
const PAGE = 1_000;

/**
 * The tasks table of one device database, read once and then patched from the keys each write names
 * (`watchTable`): a status change re-reads one row and moves it within its group, where a live query of
 * the whole table re-read, re-sorted and regrouped 10,000 rows per change. Shared by every mount of the
 * screen and kept a while after it closes, so a return to /tasks renders from memory.
 */
class TaskStore extends SharedStore<TaskData> {
  private rows = new Map<string, TaskRow>();
  private index: TaskIndex<TaskRow> = indexTasks<TaskRow>([]);
  private readonly text = new WeakMap<TaskRow, string>();
  private readonly days = new WeakMap<GroupableTask, string | null>();
  private unwatch: (() => void) | null = null;
  /** Keys written since the last patch, or 'all'; null when nothing is waiting. */
  private pending: Set<string> | 'all' | null = null;
  private work: Promise<void> = Promise.resolve();
  /** Bumped by `stop`: reads started before it are dropped. */
  private generation = 0;

  constructor(private readonly db: SyncDb) {
    super(KEEP_ALIVE_MS);
  }

  private readonly textOf = (t: TaskRow): string => {
    let s = this.text.get(t);
    if (s === undefined) this.text.set(t, (s = searchText(t)));
    return s;
  };

  private readonly dayOf = (t: GroupableTask): string | null => {
    let d = this.days.get(t);
    if (d === undefined) this.days.set(t, (d = dueDay(t.dueDate)));
    return d;
  };

  protected start() {
    const generation = this.generation;
    // Watch before the first read, so a write landing while it runs is patched in after it.
    this.unwatch = watchTable(this.db, 'tasks', (change) => this.changed(change, generation));
    this.pending = 'all';
    this.schedule(generation);
  }

  protected stop() {
    this.generation += 1;
    this.unwatch?.();
    this.unwatch = null;
    this.pending = null;
    this.rows = new Map();
    this.index = indexTasks<TaskRow>([]);
  }

  private changed(change: TableChange, generation: number) {
    if (generation !== this.generation) return;
    const first = this.pending === null;
    if (change === 'all' || this.pending === 'all') this.pending = 'all';
    else {
      this.pending ??= new Set();
      for (const k of change) this.pending.add(k);
    }
    if (first) this.schedule(generation);
  }

  /** Runs the waiting patch after the one in progress: patches apply in the order of their reads. */
  private schedule(generation: number) {
    this.work = this.work
      .then(() => this.flush(generation))
      .catch((err: unknown) => {
        // Sign-out closes the database under a read of this kept store: nothing of it will be shown.
        if (err instanceof Dexie.DatabaseClosedError) return;
        console.error('tasks: reading the device database failed', err);
      });
  }

  private async flush(generation: number) {
    const pending = this.pending;
    this.pending = null;
    if (pending === null || generation !== this.generation) return;
    if (pending === 'all') await this.reload(generation);
    else await this.patch([...pending], generation);
  }

  private async reload(generation: number) {
    const rows: TaskRow[] = [];
    let last: string | null = null;
    for (;;) {
      const page: TaskRow[] = await (last === null
        ? this.db.tasks.orderBy(':id').limit(PAGE).toArray()
        : this.db.tasks.where(':id').above(last).limit(PAGE).toArray());
      if (generation !== this.generation) return;
      rows.push(...page);
      if (page.length < PAGE) break;
      last = page[page.length - 1]!.id;
    }
    // Rows unchanged since the last read keep their object (what was computed from them is reused), and a
    // reload that changed a few rows (another tab's bulk write, a small pull page) patches the index.
    const next = new Map<string, TaskRow>();
    const added: TaskRow[] = [];
    const removed: TaskRow[] = [];
    for (const row of rows) {
      const old = this.rows.get(row.id);
      if (old && sameRow(old, row)) next.set(row.id, old);
      else {
        next.set(row.id, row);
        added.push(row);
        if (old) removed.push(old);
      }
    }
    for (const [id, old] of this.rows) if (!next.has(id)) removed.push(old);
    this.rows = next;
    if (this.value && added.length === 0 && removed.length === 0) return;
    this.index =
      this.value && added.length + removed.length < next.size / 8
        ? patchTaskIndex(this.index, removed, added)
        : indexTasks([...next.values()].sort(compareTasks));
    this.emit();
  }

  private async patch(keys: string[], generation: number) {
    const fresh = await this.db.tasks.bulkGet(keys);
    if (generation !== this.generation) return;
    const removed: TaskRow[] = [];
    const added: TaskRow[] = [];
    keys.forEach((key, i) => {
      const old = this.rows.get(key);
      const row = fresh[i];
      if (old && row && sameRow(old, row)) return;
      if (old) removed.push(old);
      if (row) added.push(row);
    });
    if (removed.length === 0 && added.length === 0 && this.value) return;
    this.index = patchTaskIndex(this.index, removed, added);
    for (const old of removed) this.rows.delete(old.id);
    for (const row of added) this.rows.set(row.id, row);
    this.emit();
  }

  private emit() {
    this.publish({
      index: this.index,
      tasks: this.index.sorted as TaskRow[],
      textOf: this.textOf,
      dayOf: this.dayOf,
    });
  }
}

/** Whether two reads of a row hold the same values (rows are flat records of the wire's fields). */
function sameRow(a: TaskRow, b: TaskRow): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) {
    const x = ra[k];
    const y = rb[k];
    if (x === y) continue;
    if (x instanceof Date && y instanceof Date && x.getTime() === y.getTime()) continue;
    if (typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y)) continue;
    return false;
  }
  return true;
}

const EMPTY: TaskData = {
  index: undefined,
  tasks: undefined,
  textOf: searchText,
  dayOf: (t) => dueDay(t.dueDate),
};

const sortProjects = (rows: unknown[]) =>
  (rows as ProjectRow[]).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || (a.id < b.id ? -1 : 1));

const taskStores = new WeakMap<SyncDb, TaskStore>();
const projectStores = new WeakMap<SyncDb, LiveQueryStore<ProjectRow[], ProjectRow[]>>();
const peopleStores = new WeakMap<SyncDb, LiveQueryStore<UserRow[], People>>();
const NO_PEOPLE = peopleOf([]);

/**
 * Every task on the device, in list order and grouped, patched per write (never re-read per keystroke):
 * the filters run in memory over it (docs/decisions/023-tasks-at-ten-thousand.md).
 */
export function useTaskData(db: SyncDb): TaskData {
  let store = taskStores.get(db);
  if (!store) taskStores.set(db, (store = new TaskStore(db)));
  return useSyncExternalStore(store.subscribe, store.get) ?? EMPTY;
}

/** Every project on the device (a company has few), by name, or undefined while the first read is pending. */
export function useProjectList(db: SyncDb): ProjectRow[] | undefined {
  let store = projectStores.get(db);
  if (!store)
    projectStores.set(
      db,
      (store = new LiveQueryStore(() => db.projects.toArray(), sortProjects, KEEP_ALIVE_MS)),
    );
  return useSyncExternalStore(store.subscribe, store.get);
}

/**
 * The company's people (assignee names and choices), kept like the tasks: read on every mount, the names
 * arrived a moment after the rows and every row rendered again to show them.
 */
export function usePeopleKept(db: SyncDb): People {
  let store = peopleStores.get(db);
  if (!store)
    peopleStores.set(
      db,
      (store = new LiveQueryStore(
        () => db.users.toArray(),
        (rows) => peopleOf(rows as UserRow[]),
        KEEP_ALIVE_MS,
      )),
    );
  return useSyncExternalStore(store.subscribe, store.get) ?? NO_PEOPLE;
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
