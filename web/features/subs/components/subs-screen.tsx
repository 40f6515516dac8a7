import { appNow } from '#web/lib/app-clock.ts';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { Activity, CalendarClock, ClipboardList, HardHat, Link2, Plus, WifiOff, X } from 'lucide-react';
import { newId } from '#shared/ids.ts';
import { DEFAULT_TIME_ZONE, todayIn } from '#shared/rules/dates.ts';
import { isTaskOverdue } from '#shared/rules/due-date-text.ts';
import {
  boardOverview,
  dailyTasks,
  groupTasks,
  isActiveSubcontractor,
  milestoneTasks,
  recentActivity,
  SUBCONTRACTOR_CATEGORY,
  weeklyView,
} from '#shared/rules/subs-board.ts';
import type { SyncDb, TaskRow } from '#sync/db.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { displayName } from '#web/features/projects/utils/assignee-name.ts';
import { TASK_STATUS_LABELS, type TaskStatus } from '#web/features/projects/utils/task-form.ts';
import { newSubTaskForm, subTaskToForm, type SubTaskFields } from '../utils/sub-task-form.ts';
import { AssignProjectDialog, type AssignmentInput } from './assign-project-dialog.tsx';
import { SubTaskDialog, type Choice } from './sub-task-dialog.tsx';
import { SubTaskList, SubTaskRow } from './sub-task-row.tsx';

export interface SubsScreenProps {
  db: SyncDb;
  write: LocalWrite;
  /** Whether the user holds a permission; everything is allowed when omitted. */
  can?: (permission: string) => boolean;
  /** The company's IANA time zone: what "today" and "this week" are. UTC when omitted. */
  timeZone?: string;
  /** Whether the server can be reached now: assigning a subcontractor to a project needs it. */
  online: boolean;
  /** Sends an assignment to the server (POST /api/subcontractor-assignments). */
  assign: (input: AssignmentInput) => Promise<void>;
  /** Ends an assignment on the server (DELETE /api/subcontractor-assignments/{id}). */
  unassign: (assignmentId: string) => Promise<void>;
  /** The clock (tests pin it). */
  now?: () => Date;
}

export const TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'daily', label: 'Daily Tasks' },
  { value: 'weekly', label: 'Weekly View' },
  { value: 'projects', label: 'By Projects' },
  { value: 'subcontractors', label: 'By Subcontractors' },
  { value: 'milestones', label: 'Milestones' },
] as const;

/** Why the assignment button is disabled offline (the device's assignments are a read-only mirror). */
export const OFFLINE_ASSIGN_REASON =
  'Assigning a subcontractor to a project needs a connection: you are offline. Tasks can still be assigned.';

type DialogState =
  | { kind: 'create' }
  | { kind: 'edit'; task: TaskRow }
  | { kind: 'assign'; subcontractorId?: string }
  | { kind: 'unassign'; assignmentId: string; subcontractor: string; project: string };

const allowAll = () => true;
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));
const byName = (a: Choice, b: Choice) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);

const weekdayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayHeading = (day: string) => weekdayFormat.format(Date.parse(`${day}T00:00:00.000Z`));

function activityTime(iso: string | null | undefined, timeZone: string): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(t)) return '';
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  }).format(t);
}

function Section({
  title,
  count,
  children,
  action,
  badge,
}: {
  title: string;
  badge?: ReactNode;
  count?: number;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-3 sm:p-4" aria-label={title}>
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">
          {title}
          {badge}
          {count !== undefined && <span className="ml-2 text-sm font-normal text-slate-600">({count})</span>}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** The Subcontractors board (spec 02 section 2), read from the device's mirror: offline it works the same. */
export function SubsScreen({
  db,
  write,
  can = allowAll,
  timeZone = DEFAULT_TIME_ZONE,
  online,
  assign,
  unassign,
  now = appNow,
}: SubsScreenProps) {
  const tasks = useLiveQuery(() => db.tasks.where('category').equals(SUBCONTRACTOR_CATEGORY).toArray(), [db]);
  // The directory mirrors and the project list are small (a company's people and projects).
  const users = useLiveQuery(() => db.users.toArray(), [db]);
  const projectRows = useLiveQuery(() => db.projects.toArray(), [db]);
  const assignments = useLiveQuery(() => db.subcontractor_assignments.toArray(), [db]);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [tab, setTab] = useState<string>('overview');
  const savedToast = useSavedToast(db);

  const names = useMemo(() => {
    const m = new Map<string, string>();
    for (const u of users ?? []) m.set(u.id, displayName(u) || 'Unknown User');
    return m;
  }, [users]);
  const subcontractors = useMemo<Choice[]>(
    () =>
      (users ?? [])
        .filter((u) => isActiveSubcontractor(u))
        .map((u) => ({ id: u.id, name: names.get(u.id) ?? 'Unknown User' }))
        .sort(byName),
    [users, names],
  );
  const projects = useMemo<Choice[]>(
    () => (projectRows ?? []).map((p) => ({ id: p.id, name: p.name || 'Untitled project' })).sort(byName),
    [projectRows],
  );
  const projectNames = useMemo(() => new Map(projects.map((p) => [p.id, p.name])), [projects]);
  const activeAssignments = useMemo(
    () => (assignments ?? []).filter((a) => a.status === 'active'),
    [assignments],
  );
  const assignedPairs = useMemo(
    () => new Set(activeAssignments.map((a) => `${a.subcontractorId}:${a.projectId}`)),
    [activeAssignments],
  );

  const canCreate = can('tasks:create');
  const canUpdate = can('tasks:update');
  const canAssignProjects = can('assignments:manage');
  const at = now();

  const toggle = useCallback(
    async (task: TaskRow, completed: boolean) => {
      const status = completed ? 'completed' : 'pending';
      try {
        await write('tasks', 'patch', task.id, { status });
        await savedToast(task.id, { title: completed ? 'Task completed!' : 'Task marked as pending' });
      } catch (err) {
        toast({
          title: 'Failed to update task status',
          description: `Failed to update task: ${messageOf(err)}`,
          variant: 'destructive',
        });
      }
    },
    [write, savedToast],
  );

  const create = async (data: SubTaskFields) => {
    const id = newId();
    await write('tasks', 'create', id, data);
    await savedToast(id, { title: 'Task created successfully' });
  };
  const update = async (task: TaskRow, changed: Partial<SubTaskFields>) => {
    if (Object.keys(changed).length === 0) return;
    await write('tasks', 'patch', task.id, changed);
    await savedToast(task.id, { title: 'Task updated successfully' });
  };

  if (tasks === undefined || users === undefined || projectRows === undefined || assignments === undefined) {
    return (
      <p role="status" className="p-4 text-sm text-slate-600">
        Loading subcontractor tasks...
      </p>
    );
  }

  const assigneeOf = (t: TaskRow) =>
    t.assigneeId ? names.get(t.assigneeId) || 'Unknown User' : 'Unassigned';
  const row = (withTime?: boolean) => (task: TaskRow) => (
    <SubTaskRow
      key={task.id}
      task={task}
      projectName={task.projectId ? (projectNames.get(task.projectId) ?? 'Unknown Project') : null}
      assigneeName={assigneeOf(task)}
      withTime={withTime}
      overdue={isTaskOverdue({ status: task.status ?? 'pending', dueDate: task.dueDate }, at, timeZone)}
      canUpdate={canUpdate}
      onToggle={(t, c) => void toggle(t, c)}
      onOpen={(t) => setDialog({ kind: 'edit', task: t })}
    />
  );

  const overview = boardOverview(tasks, users, at, timeZone);
  const recent = recentActivity(tasks);
  const daily = dailyTasks(tasks, at, timeZone);
  const week = weeklyView(tasks, at, timeZone);
  const today = todayIn(at, timeZone);
  const milestones = milestoneTasks(tasks);
  const byProject = groupTasks(tasks, (t) => t.projectId);
  const byAssignee = groupTasks(tasks, (t) => t.assigneeId);
  const projectGroups = [...byProject.entries()]
    .map(([id, list]) => ({
      id,
      name: id ? (projectNames.get(id) ?? 'Unknown Project') : 'No Project',
      list,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  // Every active subcontractor has a group (a manager sees who has no work yet), then any other assignee.
  const assigneeIds = [
    ...new Set([
      ...subcontractors.map((s) => s.id),
      ...[...byAssignee.keys()].filter((k): k is string => k !== null),
    ]),
  ];
  const subGroups = assigneeIds
    .map((id) => ({ id, name: names.get(id) || 'Unknown User', list: byAssignee.get(id) ?? [] }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const unassigned = byAssignee.get(null) ?? [];
  const projectsOf = (subId: string) =>
    activeAssignments
      .filter((a) => a.subcontractorId === subId)
      .map((a) => ({ id: a.id, name: projectNames.get(a.projectId ?? '') ?? 'Unknown Project' }))
      .sort((a, b) => a.name.localeCompare(b.name));

  const assignButton = (subcontractorId?: string, label = 'Assign to Project') =>
    canAssignProjects ? (
      <Button
        variant="outline"
        size="sm"
        disabled={!online}
        title={online ? undefined : OFFLINE_ASSIGN_REASON}
        aria-describedby={online ? undefined : 'subs-offline-reason'}
        onClick={() => setDialog({ kind: 'assign', subcontractorId })}
      >
        <Link2 className="mr-1 h-4 w-4" aria-hidden="true" />
        {label}
      </Button>
    ) : null;

  const stat = (label: string, value: number, icon: ReactNode) => (
    <Card>
      <CardContent className="flex items-center justify-between gap-3 p-4">
        <div>
          <p className="text-sm text-slate-600">{label}</p>
          <p className="text-2xl font-semibold text-slate-900" aria-label={`${label}: ${value}`}>
            {value}
          </p>
        </div>
        {icon}
      </CardContent>
    </Card>
  );

  return (
    <div className="mx-auto grid w-full max-w-6xl min-w-0 gap-4 p-3 sm:p-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900">Subcontractors</h1>
          <p className="text-sm text-slate-600">Subcontractor tasks, schedules and milestones</p>
        </div>
        {canCreate && (
          <Button onClick={() => setDialog({ kind: 'create' })}>
            <Plus className="mr-1 h-4 w-4" aria-hidden="true" />
            Add Task
          </Button>
        )}
      </header>
      {canAssignProjects && !online && (
        <p
          id="subs-offline-reason"
          className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <WifiOff className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {OFFLINE_ASSIGN_REASON}
        </p>
      )}

      <Tabs value={tab} onValueChange={setTab} className="grid min-w-0 gap-3">
        <TabsList className="flex h-auto w-full flex-wrap justify-start" aria-label="Subcontractor views">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>

        <TabsContent value="overview" className="grid gap-4">
          <div className="grid gap-3 sm:grid-cols-3">
            {stat(
              'Active Subcontractors',
              overview.activeSubcontractors,
              <HardHat className="h-6 w-6 text-teal-700" aria-hidden="true" />,
            )}
            {stat(
              'Pending Tasks',
              overview.pendingTasks,
              <ClipboardList className="h-6 w-6 text-amber-600" aria-hidden="true" />,
            )}
            {stat(
              'Due Today',
              overview.dueToday,
              <CalendarClock className="h-6 w-6 text-red-600" aria-hidden="true" />,
            )}
          </div>
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <Activity className="h-4 w-4" aria-hidden="true" />
                Recent Activity
              </CardTitle>
            </CardHeader>
            <CardContent>
              {recent.length === 0 ? (
                <p className="text-sm text-slate-600">No subcontractor activity yet</p>
              ) : (
                <ul className="divide-y divide-slate-100" aria-label="Recent activity">
                  {recent.map((t) => (
                    <li
                      key={t.id}
                      className="flex flex-wrap items-baseline justify-between gap-x-3 py-2 text-sm"
                    >
                      <button
                        type="button"
                        className="min-h-11 min-w-0 text-left font-medium wrap-anywhere text-slate-900 hover:underline"
                        onClick={() => setDialog({ kind: 'edit', task: t })}
                      >
                        {t.title || 'Untitled task'}
                      </button>
                      <span className="text-slate-600">
                        {TASK_STATUS_LABELS[(t.status ?? 'pending') as TaskStatus] ?? t.status} ·{' '}
                        {assigneeOf(t)}
                        {' · '}
                        {activityTime(t.updatedAt ?? t.createdAt, timeZone)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="daily">
          <Section title="Tasks Due Today" count={daily.length}>
            <SubTaskList tasks={daily} empty="No tasks due today" label="Tasks due today" row={row()} />
          </Section>
        </TabsContent>

        <TabsContent value="weekly" className="grid gap-3">
          {week.map(({ day, tasks: list }) => (
            <Section
              key={day}
              title={dayHeading(day)}
              count={list.length}
              badge={
                day === today ? (
                  <span className="ml-2 rounded-full bg-teal-100 px-2 py-0.5 text-xs font-medium text-teal-800">
                    Today
                  </span>
                ) : null
              }
            >
              <SubTaskList
                tasks={list}
                empty="No tasks due"
                label={`Tasks due ${dayHeading(day)}`}
                row={row(true)}
              />
            </Section>
          ))}
        </TabsContent>

        <TabsContent value="projects" className="grid gap-3">
          {projectGroups.length === 0 && <p className="text-sm text-slate-600">No subcontractor tasks yet</p>}
          {projectGroups.map((g) => (
            <Section key={g.id ?? 'none'} title={g.name} count={g.list.length}>
              <SubTaskList tasks={g.list} empty="No tasks" label={`Tasks of ${g.name}`} row={row()} />
            </Section>
          ))}
        </TabsContent>

        <TabsContent value="subcontractors" className="grid gap-3">
          {canAssignProjects && <div className="flex justify-end">{assignButton()}</div>}
          {subGroups.map((g) => {
            const on = projectsOf(g.id);
            return (
              <Section
                key={g.id}
                title={g.name}
                count={g.list.length}
                action={assignButton(g.id, 'Assign Project')}
              >
                {on.length === 0 ? (
                  <p className="mb-1 text-xs text-slate-600">Not assigned to a project</p>
                ) : (
                  <div className="mb-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
                    <span>Projects:</span>
                    <ul className="flex flex-wrap gap-1.5" aria-label={`Projects of ${g.name}`}>
                      {on.map((p) => (
                        <li
                          key={p.id}
                          className="inline-flex max-w-full items-center rounded-2xl bg-slate-100 pl-2.5 text-slate-800"
                        >
                          {/* Wrapped, not cut: at 320 px a long name would widen the page or lose its end. */}
                          <span className="min-w-0 wrap-anywhere">{p.name}</span>
                          {canAssignProjects ? (
                            <button
                              type="button"
                              className="ml-0.5 inline-flex h-11 w-11 items-center justify-center rounded-full text-slate-500 hover:text-red-700 disabled:opacity-40 md:h-7 md:w-7"
                              aria-label={`Remove ${g.name} from ${p.name}`}
                              disabled={!online}
                              title={online ? undefined : OFFLINE_ASSIGN_REASON}
                              onClick={() =>
                                setDialog({
                                  kind: 'unassign',
                                  assignmentId: p.id,
                                  subcontractor: g.name,
                                  project: p.name,
                                })
                              }
                            >
                              <X className="h-3.5 w-3.5" aria-hidden="true" />
                            </button>
                          ) : (
                            <span className="pr-2.5" />
                          )}
                        </li>
                      ))}
                    </ul>
                  </div>
                )}
                <SubTaskList
                  tasks={g.list}
                  empty="No tasks assigned"
                  label={`Tasks of ${g.name}`}
                  row={row()}
                />
              </Section>
            );
          })}
          <Section title="Unassigned Tasks" count={unassigned.length}>
            <SubTaskList
              tasks={unassigned}
              empty="No unassigned tasks"
              label="Unassigned tasks"
              row={row()}
            />
          </Section>
        </TabsContent>

        <TabsContent value="milestones">
          <Section title="Milestones" count={milestones.length}>
            <SubTaskList tasks={milestones} empty="No milestones" label="Milestone tasks" row={row()} />
          </Section>
        </TabsContent>
      </Tabs>

      {dialog?.kind === 'create' && (
        <SubTaskDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          mode="create"
          initial={newSubTaskForm(projects.length === 1 ? { projectId: projects[0]!.id } : {})}
          projects={projects}
          subcontractors={subcontractors}
          names={names}
          timeZone={timeZone}
          onSubmit={(data) => create(data)}
        />
      )}
      {dialog?.kind === 'edit' && (
        <SubTaskDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          mode="edit"
          initial={subTaskToForm(dialog.task)}
          storedDueDate={dialog.task.dueDate ?? null}
          projects={projects}
          subcontractors={subcontractors}
          names={names}
          timeZone={timeZone}
          onSubmit={(_data, changed) => update(dialog.task, changed)}
        />
      )}
      {dialog?.kind === 'unassign' && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          title="Remove from Project"
          description={`Remove ${dialog.subcontractor} from ${dialog.project}? They will no longer see its tasks on their board.`}
          confirmLabel="Remove"
          onConfirm={() => {
            const { assignmentId } = dialog;
            void unassign(assignmentId).then(
              () => toast({ title: 'Subcontractor removed from project' }),
              (err: unknown) =>
                toast({
                  title: 'Failed to remove subcontractor',
                  description: messageOf(err),
                  variant: 'destructive',
                }),
            );
          }}
        />
      )}
      {dialog?.kind === 'assign' && (
        <AssignProjectDialog
          open
          onOpenChange={(o) => !o && setDialog(null)}
          subcontractors={subcontractors}
          projects={projects}
          assigned={assignedPairs}
          initialSubcontractorId={dialog.subcontractorId}
          onSubmit={async (input) => {
            await assign(input);
            toast({ title: 'Subcontractor assigned to project' });
          }}
        />
      )}
    </div>
  );
}
