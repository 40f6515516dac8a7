import { useMemo } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { addCalendarDays, startOfTodayIn, todayIn } from '#shared/rules/dates.ts';
import {
  EXPIRED_LIMIT,
  expiredTasks,
  nextPriorityTasks,
  todaysTasks,
} from '#shared/rules/dashboard-selections.ts';
import { isNewThisWeek, pendingDueTodayCount } from '#shared/rules/dashboard-cards.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';

/**
 * The dashboard's field parts (spec 01 section 2) read from the device mirror, so they work offline from a
 * cold start. Counts and task widgets read indexes, never a whole task table: a company may hold 10,000
 * tasks and the dashboard is the first screen after sign-in.
 */

/** A task as the widgets show it (mirror rows are partial: a missing value reads as its default). */
export interface DashboardTaskView {
  id: string;
  title: string;
  projectId: string | null;
  status: string;
  priority: string;
  dueDate: string | null;
}

export interface DashboardProjectView {
  id: string;
  name: string;
  status: string;
  progress: number;
  dueDate: string | null;
  budget: number | null;
  actualCost: number;
  location: string;
  createdAt: string | null;
}

export interface TaskWidgets {
  pendingTasks: number;
  pendingDueToday: number;
  completedTasks: number;
  today: DashboardTaskView[];
  expired: DashboardTaskView[];
  expiredCount: number;
  next: DashboardTaskView[];
}

export interface PhotoCounts {
  photosUploaded: number;
  photosUploadedToday: number;
}

const taskView = (t: TaskRow): DashboardTaskView => ({
  id: t.id,
  title: t.title ?? 'Untitled task',
  projectId: t.projectId ?? null,
  status: t.status ?? 'pending',
  priority: t.priority ?? 'medium',
  dueDate: t.dueDate ?? null,
});

const projectView = (p: ProjectRow): DashboardProjectView => ({
  id: p.id,
  name: p.name ?? 'Untitled project',
  status: p.status ?? 'active',
  progress: p.progress ?? 0,
  dueDate: p.dueDate ?? null,
  budget: p.budget ?? null,
  actualCost: p.actualCost ?? 0,
  location: p.location ?? '',
  createdAt: p.createdAt ?? null,
});

const open = (t: TaskRow) => t.status !== 'completed';

/**
 * The task widgets of the company day `today`. A due date names its UTC calendar day (dates.ts) and is an
 * ISO string, so the days before today are the index keys below `today` and today's are the keys from
 * `today` up to tomorrow; the shared rules then pick and order the tasks.
 */
export async function readTaskWidgets(db: SyncDb, now: Date, timeZone: string): Promise<TaskWidgets> {
  const today = todayIn(now, timeZone);
  const tomorrow = addCalendarDays(today, 1);
  const [total, completedTasks, dueToday, expiredOpen, upcomingOpen] = await Promise.all([
    db.tasks.count(),
    db.tasks.where('status').equals('completed').count(),
    db.tasks.where('dueDate').between(today, tomorrow, true, false).toArray(),
    db.tasks.where('dueDate').below(today).filter(open).toArray(),
    db.tasks.where('dueDate').aboveOrEqual(today).filter(open).toArray(),
  ]);
  const dueTodayViews = dueToday.map(taskView);
  const allExpired = expiredTasks(expiredOpen.map(taskView), now, timeZone, Infinity);
  return {
    pendingTasks: total - completedTasks,
    pendingDueToday: pendingDueTodayCount(dueTodayViews, now, timeZone),
    completedTasks,
    today: todaysTasks(dueTodayViews, now, timeZone),
    // The longest overdue first (the index order): the oldest misses are the ones to chase.
    expired: allExpired.slice(0, EXPIRED_LIMIT),
    expiredCount: allExpired.length,
    next: nextPriorityTasks(upcomingOpen.map(taskView), now, timeZone),
  };
}

/** Photos on the device, and those taken since the company's day began. */
export async function readPhotoCounts(db: SyncDb, now: Date, timeZone: string): Promise<PhotoCounts> {
  const since = startOfTodayIn(now, timeZone).toISOString();
  const [photosUploaded, photosUploadedToday] = await Promise.all([
    db.photos.count(),
    db.photos.where('createdAt').aboveOrEqual(since).count(),
  ]);
  return { photosUploaded, photosUploadedToday };
}

/** Every project on the device (a company has few: the overview needs them all for its metrics). */
export async function readProjects(db: SyncDb): Promise<DashboardProjectView[]> {
  return (await db.projects.toArray()).map(projectView);
}

export interface FieldData {
  projects: DashboardProjectView[] | undefined;
  newThisWeek: number | undefined;
  tasks: TaskWidgets | undefined;
  photos: PhotoCounts | undefined;
}

/**
 * The live field parts. Each table is its own live query, so a task ticked off re-reads the tasks only;
 * the reads depend on the company day, not on the minute, and re-run when the day turns.
 */
export function useFieldData(db: SyncDb, now: Date, timeZone: string): FieldData {
  const day = todayIn(now, timeZone);
  // `now` changes every minute; the reads need it only for its day.
  const dayNow = useMemo(() => now, [day]);
  const projects = useLiveQuery(() => readProjects(db), [db]);
  const tasks = useLiveQuery(() => readTaskWidgets(db, dayNow, timeZone), [db, dayNow, timeZone]);
  const photos = useLiveQuery(() => readPhotoCounts(db, dayNow, timeZone), [db, dayNow, timeZone]);
  const newThisWeek = useMemo(
    () => projects?.filter((p) => isNewThisWeek(p.createdAt, now, timeZone)).length,
    [projects, now, timeZone],
  );
  return { projects, newThisWeek, tasks, photos };
}
