import { useMemo } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { crewDay, CREW_RECENT_REQUESTS, type CrewDay } from '#shared/rules/crew-day.ts';
import type { ScheduleChangeRow, SyncDb, TaskRow } from '#sync/db.ts';

export interface CrewData extends CrewDay<TaskRow> {
  /** The user's latest schedule-change requests, newest first. */
  requests: ScheduleChangeRow[];
  /** Titles of the tasks the requests are about. */
  taskTitles: ReadonlyMap<string, string>;
  /** Names of the projects of the listed tasks. */
  projectNames: ReadonlyMap<string, string>;
}

/**
 * When this device ticked off tasks whose completion has not reached the server: the server stamps
 * completedAt (the client may not send it), so until the pull brings it back, the time of the user's own
 * unsent tick is when the task was completed ('Completed Today' counts it offline too).
 */
async function unsentCompletions(db: SyncDb, taskIds: string[]): Promise<Map<string, string>> {
  const at = new Map<string, string>();
  if (taskIds.length === 0) return at;
  const entries = await db.outbox.where('rowId').anyOf(taskIds).toArray();
  entries.sort((a, b) => a.id - b.id);
  for (const e of entries) {
    if (e.table === 'tasks' && e.data.status === 'completed') {
      at.set(e.rowId, new Date(e.clientTime).toISOString());
    }
  }
  return at;
}

interface Rows {
  tasks: TaskRow[];
  requests: ScheduleChangeRow[];
  taskTitles: Map<string, string>;
  projectNames: Map<string, string>;
}

/** Everything the screen shows, read by index: the user's own tasks and their latest own requests. */
async function readRows(db: SyncDb, userId: string): Promise<Rows> {
  const mine = await db.tasks.where('assigneeId').equals(userId).toArray();
  const completions = await unsentCompletions(
    db,
    mine.filter((t) => t.status === 'completed').map((t) => t.id),
  );
  const tasks = mine.map((t) => {
    const at = completions.get(t.id);
    return at ? { ...t, completedAt: at } : t;
  });
  const requests = await db.schedule_changes
    .orderBy('createdAt')
    .reverse()
    .filter((c) => c.userId === userId)
    .limit(CREW_RECENT_REQUESTS)
    .toArray();
  const known = new Map(tasks.map((t) => [t.id, t] as const));
  const missing = [...new Set(requests.map((r) => r.taskId).filter((id): id is string => !!id))].filter(
    (id) => !known.has(id),
  );
  for (const t of await db.tasks.bulkGet(missing)) if (t) known.set(t.id, t);
  const taskTitles = new Map([...known.values()].map((t) => [t.id, t.title ?? 'Untitled task'] as const));
  const projectIds = [...new Set(tasks.map((t) => t.projectId).filter((id): id is string => !!id))];
  const projects = await db.projects.bulkGet(projectIds);
  const projectNames = new Map(projects.flatMap((p) => (p?.name ? [[p.id, p.name] as const] : [])));
  return { tasks, requests, taskTitles, projectNames };
}

/** The Crew Dashboard's data from the device mirror (undefined until the first read answers). */
export function useCrewData(db: SyncDb, userId: string, now: Date, timeZone: string): CrewData | undefined {
  const rows = useLiveQuery(() => readRows(db, userId), [db, userId]);
  return useMemo(() => {
    if (!rows) return undefined;
    return { ...crewDay(rows.tasks, now, timeZone), ...rows };
  }, [rows, now, timeZone]);
}
