import { useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
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

/**
 * One live read of the tasks table, re-run only when the table changes (never per keystroke): the
 * filters run in memory over this list, which measured far cheaper than one indexed query per filter
 * change once a search is involved (docs/decisions/010-task-management-reads.md).
 */
export function useTaskData(db: SyncDb): TaskData {
  const rows = useLiveQuery(() => db.tasks.toArray(), [db]);
  return useMemo(() => {
    if (!rows) return { tasks: undefined, textOf: searchText };
    const sorted = rows.sort(compareTasks);
    const cache = new WeakMap<TaskRow, string>();
    const textOf = (t: TaskRow) => {
      let s = cache.get(t);
      if (s === undefined) cache.set(t, (s = searchText(t)));
      return s;
    };
    return { tasks: sorted, textOf };
  }, [rows]);
}

/** Every project on the device (a company has few), by name, or undefined while the first read is pending. */
export function useProjectList(db: SyncDb): ProjectRow[] | undefined {
  const rows = useLiveQuery(() => db.projects.toArray(), [db]);
  return useMemo(
    () => rows?.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || (a.id < b.id ? -1 : 1)),
    [rows],
  );
}
