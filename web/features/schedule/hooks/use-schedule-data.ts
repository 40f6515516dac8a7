import { useMemo } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { UPCOMING_LIMIT, byDueDate, upcomingLowerBound, upcomingTasks } from '#shared/rules/timeline.ts';
import type { ProjectRow, ScheduleChangeRow, SyncDb, TaskRow, UserRow } from '#sync/db.ts';

/**
 * The Schedule screen's reads of the device mirror. Every task read goes through the dueDate index (a
 * large company has 10,000 tasks on the device): never a scan of the whole table.
 */

/** The company's projects (few), by id: names for every list, due dates for the calendar. */
export function useProjects(db: SyncDb): Map<string, ProjectRow> | undefined {
  const rows = useLiveQuery(() => db.projects.toArray(), [db]);
  return useMemo(() => (rows ? new Map(rows.map((p) => [p.id, p])) : undefined), [rows]);
}

/** Overview's Upcoming Tasks: from the company's today on the dueDate index, the first 10. */
export function useUpcomingTasks(db: SyncDb, now: Date, timeZone: string): TaskRow[] | undefined {
  const bound = upcomingLowerBound(now, timeZone);
  const rows = useLiveQuery(
    // A few beyond the limit so that ties on the last due date are broken by title, as the rule says.
    () =>
      db.tasks
        .where('dueDate')
        .aboveOrEqual(bound)
        .limit(UPCOMING_LIMIT + 10)
        .toArray(),
    [db, bound],
  );
  return useMemo(() => (rows ? upcomingTasks(rows, now, timeZone) : undefined), [rows, now, timeZone]);
}

/** The number of recent schedule updates the Overview lists. */
export const RECENT_UPDATES_LIMIT = 10;

export interface RecentUpdate {
  change: ScheduleChangeRow;
  task: TaskRow | undefined;
  requester: UserRow | undefined;
}

/** The newest schedule-change requests, with their task and requester from the mirror. */
export function useRecentUpdates(db: SyncDb): RecentUpdate[] | undefined {
  return useLiveQuery(async () => {
    const changes = await db.schedule_changes
      .orderBy('createdAt')
      .reverse()
      .limit(RECENT_UPDATES_LIMIT)
      .toArray();
    const [tasks, users] = await Promise.all([
      db.tasks.bulkGet(changes.map((c) => c.taskId ?? '')),
      db.users.bulkGet(changes.map((c) => c.userId ?? '')),
    ]);
    return changes.map((change, i) => ({ change, task: tasks[i], requester: users[i] }));
  }, [db]);
}

/** Ids of every task with a due date, in due-date order (keys only: cheap even for 10,000 tasks). */
export function useDatedTaskIds(db: SyncDb): string[] | undefined {
  return useLiveQuery(async () => (await db.tasks.orderBy('dueDate').primaryKeys()).map(String), [db]);
}

/**
 * The Gantt chart's tasks in due-date order: open tasks due before `lowerBound` (overdue work, drawn on
 * Today) and every task from `lowerBound` on. A task completed in the past has nothing left to schedule:
 * months of finished work would bury this week's bars (phone review).
 */
export function useGanttTaskIds(db: SyncDb, lowerBound: string): string[] | undefined {
  return useLiveQuery(async () => {
    const [past, completed, current] = await Promise.all([
      db.tasks.where('dueDate').below(lowerBound).primaryKeys(),
      db.tasks.where('status').equals('completed').primaryKeys(),
      db.tasks.where('dueDate').aboveOrEqual(lowerBound).primaryKeys(),
    ]);
    const done = new Set(completed.map(String));
    return [...past.map(String).filter((id) => !done.has(id)), ...current.map(String)];
  }, [db, lowerBound]);
}

/** How many dated tasks fall before `lowerBound`: the Timeline's index of today. */
export function useCountDueBefore(db: SyncDb, lowerBound: string): number | undefined {
  return useLiveQuery(() => db.tasks.where('dueDate').below(lowerBound).count(), [db, lowerBound]);
}

/**
 * The rows of `ids[start..end)`, read by key: a long Timeline or Gantt list reads only what is on screen.
 */
export function useTaskWindow(db: SyncDb, ids: readonly string[] | undefined, start: number, end: number) {
  const key = ids ? `${start}:${end}:${ids.length}` : '';
  const slice = useMemo(() => (ids ? ids.slice(start, end) : []), [ids, start, end]);
  return useLiveQuery(
    async () => (await db.tasks.bulkGet(slice)).filter((t): t is TaskRow => t !== undefined),
    [db, slice, key],
  );
}

/** Tasks due within `[firstDay, lastDay]` (calendar days), on the dueDate index, in due-date order. */
export function useTasksDueBetween(db: SyncDb, firstDay: string, lastDay: string): TaskRow[] | undefined {
  const rows = useLiveQuery(
    () =>
      db.tasks
        .where('dueDate')
        .between(`${firstDay}T00:00:00.000Z`, `${lastDay}T23:59:59.999Z`, true, true)
        .toArray(),
    [db, firstDay, lastDay],
  );
  return useMemo(() => rows?.sort(byDueDate), [rows]);
}
