import { useLiveQuery } from '#web/lib/live-query.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';

/** Every project on the device (a company has few), or undefined while the first read is pending. */
export function useProjects(db: SyncDb): ProjectRow[] | undefined {
  return useLiveQuery(() => db.projects.toArray(), [db]);
}

/** The tasks of a project (read on the projectId index), by due date then title. */
export function useProjectTasks(db: SyncDb, projectId: string): TaskRow[] | undefined {
  return useLiveQuery(
    async () => sortTasks(await db.tasks.where('projectId').equals(projectId).toArray()),
    [db, projectId],
  );
}

/** Tasks with a due date first (earliest first), then by title. */
export function sortTasks(tasks: TaskRow[]): TaskRow[] {
  return tasks.sort((a, b) => {
    const da = a.dueDate ?? '';
    const dbb = b.dueDate ?? '';
    if (da !== dbb) return da === '' ? 1 : dbb === '' ? -1 : da.localeCompare(dbb);
    return (a.title ?? '').localeCompare(b.title ?? '');
  });
}
