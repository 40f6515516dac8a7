import { appNow } from '#web/lib/app-clock.ts';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ChevronsDownUp, ChevronsUpDown, LayoutGrid, List, ListChecks, Plus } from 'lucide-react';
import { newId } from '#shared/ids.ts';
import { DEFAULT_TIME_ZONE, todayIn } from '#shared/rules/dates.ts';
import { hasActiveFilters, taskMatcher, type TaskFilters } from '#shared/rules/task-filters.ts';
import {
  taskTiles,
  toggledByQuickAction,
  toggledByShortcut,
  viewTaskGroups,
  type TaskGroups,
  type TaskIndex,
} from '#shared/rules/task-groups.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';
import type { LocalBatchWrite, LocalWrite } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ViewToggle } from '#web/components/ui/toggle-group.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import {
  newTaskForm,
  TASK_FIELD_LABELS,
  taskToForm,
  type TaskFields,
} from '#web/features/projects/utils/task-form.ts';
import {
  lastAnswer,
  usePeopleKept,
  useProjectList,
  useTaskData,
  type TaskData,
} from '../hooks/use-task-data.ts';
import { useTaskViewState } from '../hooks/use-task-filters.ts';
import { useTaskShortcuts } from '../hooks/use-task-shortcuts.ts';
import { BulkBar } from './bulk-bar.tsx';
import { TaskCanvasView } from './task-canvas-view.tsx';
import { TaskEmptyState } from './task-empty-state.tsx';
import { TaskFilterBar } from './task-filter-bar.tsx';
import { TasksFrame } from './tasks-frame.tsx';
import { projectGroupId, sectionId, TaskListView } from './task-list-view.tsx';
import { StatusMenu, statusMenuTarget, type StatusMenuTarget, type TaskRowActions } from './task-parts.tsx';
import { TaskTiles } from './task-tiles.tsx';

const VIEW_CHOICES = [
  { value: 'canvas', label: 'Canvas', icon: LayoutGrid },
  { value: 'list', label: 'List', icon: List },
] as const;

export interface TasksScreenProps {
  db: SyncDb;
  write: LocalWrite;
  writeAll: LocalBatchWrite;
  /** The signed-in user: 'Assigned to Me'. */
  userId: string;
  /** Whether the user holds a permission; everything is allowed when omitted. */
  can?: (permission: string) => boolean;
  /** The company's IANA time zone (the session's `companyTimeZone`). UTC when omitted. */
  timeZone?: string;
  /** The clock (tests freeze it). */
  now?: () => Date;
}

type DialogState =
  | { kind: 'create' }
  | { kind: 'edit'; task: TaskRow }
  | { kind: 'detail'; id: string }
  | { kind: 'history'; task: TaskRow }
  | { kind: 'delete'; task: TaskRow }
  | { kind: 'bulk-delete'; ids: string[] };

// The dialogs load when first opened (precached by the service worker, so offline too): the route's
// first load parses and runs only what the list needs.
const ConfirmDialog = lazy(() =>
  import('#web/components/ui/alert-dialog.tsx').then((m) => ({ default: m.ConfirmDialog })),
);
const TaskFormDialog = lazy(() =>
  import('#web/features/projects/components/task-form-dialog.tsx').then((m) => ({
    default: m.TaskFormDialog,
  })),
);
const TaskDetailDialog = lazy(() =>
  import('./task-detail-dialog.tsx').then((m) => ({ default: m.TaskDetailDialog })),
);
const RecordHistoryDialog = lazy(() =>
  import('#web/components/record-history/record-history-dialog.tsx').then((m) => ({
    default: m.RecordHistoryDialog,
  })),
);

const allowAll = () => true;
const systemNow = appNow;
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));
const NO_IDS: ReadonlySet<string> = new Set();

// Derived data remembered across mounts (keyed on the calendar day, not the minute): a return to the
// screen, or the clock ticking, recomputes nothing over the 10,000 rows unless the data or day changed.
const tilesOf = lastAnswer(
  3,
  (tasks: TaskRow[], _today: string, timeZone: string, dayOf: TaskData['dayOf'], now: Date) =>
    taskTiles(tasks, now, timeZone, dayOf),
);

/** What the list shows for the current filters: its groups and how many tasks they hold. */
interface FilteredView {
  groups: TaskGroups<TaskRow>;
  count: number;
  /** Every shown task in list order (computed when asked: Select all, the canvas Overview). */
  list: (limit?: number) => TaskRow[];
}

/** Views kept per filters while the data, day and user stay the same: Backspace finds the view it had. */
const VIEWS_KEPT = 16;

/**
 * The view of the current filters, remembered across mounts with the last few others. A search that only
 * grows the text of a kept view (typing '77' after '7') filters that view's groups instead of all 10,000
 * tasks: every task the longer text matches also matches the shorter one.
 */
const viewOf = (() => {
  let inputs: readonly unknown[] = [];
  const kept = new Map<string, { filters: TaskFilters; needle: string; view: FilteredView }>();
  return (
    index: TaskIndex<TaskRow>,
    names: ReadonlyMap<string, string>,
    today: string,
    timeZone: string,
    userId: string,
    data: TaskData,
    filters: TaskFilters,
    now: Date,
  ): FilteredView => {
    const next = [index, names, today, timeZone, userId, data];
    if (next.some((v, i) => !Object.is(v, inputs[i]))) {
      kept.clear();
      inputs = next;
    }
    const key = JSON.stringify(filters);
    const hit = kept.get(key);
    if (hit) {
      kept.delete(key);
      kept.set(key, hit);
      return hit.view;
    }
    const needle = filters.search.trim().toLowerCase();
    let base: TaskIndex<TaskRow> = index;
    let longest = -1;
    for (const k of kept.values()) {
      const same = (Object.keys(filters) as (keyof TaskFilters)[]).every(
        (f) => f === 'search' || k.filters[f] === filters[f],
      );
      if (same && k.needle !== '' && k.needle.length > longest && needle.includes(k.needle)) {
        longest = k.needle.length;
        base = indexOfView(k.view.groups);
      }
    }
    const view = filteredView(index, base, names, timeZone, userId, data, filters, now);
    kept.set(key, { filters, needle, view });
    if (kept.size > VIEWS_KEPT) kept.delete(kept.keys().next().value!);
    return view;
  };
})();

/** A view's groups as an index (its lists already in order), to filter further. */
function indexOfView(groups: TaskGroups<TaskRow>): TaskIndex<TaskRow> {
  const lists = new Map<string, readonly TaskRow[]>();
  for (const g of groups.projects) lists.set(`project:${g.projectId ?? ''}`, g.tasks);
  if (groups.administrative.length) lists.set('administrative', groups.administrative);
  if (groups.general.length) lists.set('general', groups.general);
  return { sorted: [], groups: lists };
}

function filteredView(
  index: TaskIndex<TaskRow>,
  base: TaskIndex<TaskRow>,
  names: ReadonlyMap<string, string>,
  timeZone: string,
  userId: string,
  data: TaskData,
  filters: TaskFilters,
  now: Date,
): FilteredView {
  // The groups are already built and sorted: a keystroke filters each group's list, nothing more.
  const keep = hasActiveFilters(filters)
    ? taskMatcher(filters, { now, timeZone, userId }, data.textOf)
    : null;
  const groups = viewTaskGroups(base, names, keep, now, timeZone, data.dayOf);
  const count =
    groups.projects.reduce((n, g) => n + g.tasks.length, 0) +
    groups.administrative.length +
    groups.general.length;
  const list = (limit = Infinity) => {
    if (!keep) return (index.sorted as TaskRow[]).slice(0, limit);
    const out: TaskRow[] = [];
    for (const t of index.sorted) {
      if (out.length >= limit) break;
      if (keep(t)) out.push(t);
    }
    return out;
  };
  return { groups, count, list };
}
const namesOf = lastAnswer(
  1,
  (projects: ProjectRow[] | undefined) =>
    new Map((projects ?? []).map((p) => [p.id, p.name ?? 'Untitled project'])),
);
const choicesOf = lastAnswer(1, (projects: ProjectRow[] | undefined) =>
  (projects ?? []).map((p) => ({ id: p.id, name: p.name ?? 'Untitled project' })),
);
const byIdOf = lastAnswer(1, (tasks: TaskRow[] | undefined) => new Map((tasks ?? []).map((t) => [t.id, t])));
const NO_GROUPS: TaskGroups<TaskRow> = { projects: [], administrative: [], general: [] };

/** The clock, re-read every minute so 'Due today' and the tiles follow midnight in the company's zone. */
function useMinuteClock(now: () => Date): Date {
  const [value, setValue] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setValue(now()), 60_000);
    return () => clearInterval(timer);
  }, [now]);
  return value;
}

/**
 * The Task Management screen (spec 02 section 2), local-first: it reads the device's mirror and writes
 * through the outbox, so it works the same offline and after a cold start offline.
 */
export function TasksScreen({
  db,
  write,
  writeAll,
  userId,
  can = allowAll,
  timeZone = DEFAULT_TIME_ZONE,
  now: clock = systemNow,
}: TasksScreenProps) {
  const now = useMinuteClock(clock);
  const data = useTaskData(db);
  const { tasks, index } = data;
  const projects = useProjectList(db);
  const { names, assignable } = usePeopleKept(db);
  const savedToast = useSavedToast(db);
  const { filters, view, tab, setFilters, reset, setView, setTab } = useTaskViewState();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [bulk, setBulk] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_IDS);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(NO_IDS);
  const searchRef = useRef<HTMLInputElement>(null);
  const canCreate = can('tasks:create');
  const canUpdate = can('tasks:update');
  const canDelete = can('tasks:delete');

  const projectNames = namesOf(projects);
  const projectChoices = choicesOf(projects);
  const byId = byIdOf(tasks);
  const today = todayIn(now, timeZone);
  const tiles = tasks ? tilesOf(tasks, today, timeZone, data.dayOf, now) : undefined;

  // The list follows the filters in the same render as the search box (ADR 023 round 3): the box and the
  // list repaint in one frame. Deferred (useDeferredValue), the list came a frame or more after the box:
  // 63-84 ms from key to list at 4x CPU with 10,000 tasks, against 48 ms in one render.
  // The list waits for the project names too: without them its sections read 'Unknown Project' and the
  // Project filter has no choice for a bookmarked project, for a moment that showed as a flicker.
  const shown =
    index && projects ? viewOf(index, projectNames, today, timeZone, userId, data, filters, now) : undefined;
  const groups = shown?.groups ?? NO_GROUPS;

  const setStatus = useCallback(
    async (task: TaskRow, status: string) => {
      try {
        await write('tasks', 'patch', task.id, { status });
        void savedToast(task.id, {
          title: status === 'completed' ? 'Task completed!' : 'Task updated successfully',
          description: task.title ?? undefined,
        });
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

  const [statusMenu, setStatusMenu] = useState<StatusMenuTarget | null>(null);
  const closeStatusMenu = useCallback(() => setStatusMenu(null), []);
  const actions = useMemo<TaskRowActions>(
    () => ({
      open: (task) => setDialog({ kind: 'detail', id: task.id }),
      openStatus: (task, button) => setStatusMenu(statusMenuTarget(task, button)),
      setStatus: (task, status) => void setStatus(task, status),
      toggleSelected: (task) =>
        setSelected((prev) => {
          const next = new Set(prev);
          if (next.has(task.id)) next.delete(task.id);
          else next.add(task.id);
          return next;
        }),
    }),
    [setStatus],
  );

  // /tasks?task=<id> (a notification about that task) opens it, once it is on the device.
  const [params, setParams] = useSearchParams();
  const asked = params.get('task');
  useEffect(() => {
    if (!asked || !byId.has(asked)) return;
    setDialog({ kind: 'detail', id: asked });
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('task');
        return next;
      },
      { replace: true },
    );
  }, [asked, byId, setParams]);

  const single = selected.size === 1 ? byId.get([...selected][0]!) : undefined;
  useTaskShortcuts(
    {
      onNew: canCreate ? () => setDialog({ kind: 'create' }) : undefined,
      onEdit: single && canUpdate ? () => setDialog({ kind: 'edit', task: single }) : undefined,
      onToggle:
        single && canUpdate ? () => void setStatus(single, toggledByShortcut(single.status)) : undefined,
      onFind: () => {
        searchRef.current?.focus();
        searchRef.current?.select();
      },
    },
    dialog === null,
  );

  const runBulk = async (
    ids: string[],
    writes: Parameters<LocalBatchWrite>[0],
    message: string,
  ): Promise<boolean> => {
    try {
      await writeAll(writes);
      void savedToast(ids, { title: message });
      return true;
    } catch (err) {
      toast({ title: 'Failed to update tasks', description: messageOf(err), variant: 'destructive' });
      return false;
    }
  };
  // Only tasks still on the device: one removed by a pull since it was ticked would fail the whole batch.
  const selectedIds = () => [...selected].filter((id) => byId.has(id));
  const bulkStatus = (status: string) => {
    const ids = selectedIds();
    void runBulk(
      ids,
      ids.map((rowId) => ({ table: 'tasks', op: 'patch', rowId, data: { status } })),
      `${ids.length} task(s) updated`,
    );
  };
  const bulkAssign = (assignee: string | null) => {
    const ids = selectedIds();
    const assigneeId = assignee === 'me' ? userId : assignee;
    void runBulk(
      ids,
      ids.map((rowId) => ({ table: 'tasks', op: 'patch', rowId, data: { assigneeId } })),
      `${ids.length} task(s) updated`,
    );
  };
  const bulkDelete = async (ids: string[]) => {
    const present = ids.filter((id) => byId.has(id));
    const ok = await runBulk(
      present,
      present.map((rowId) => ({ table: 'tasks', op: 'delete', rowId })),
      `${present.length} task(s) deleted`,
    );
    if (ok) setSelected(NO_IDS);
  };

  const allIds = useMemo(() => {
    const ids = [sectionId('project'), sectionId('administrative'), sectionId('general')];
    for (const g of groups.projects) ids.push(projectGroupId(g));
    return ids;
  }, [groups]);
  const anyCollapsed = collapsed.size > 0;

  const statusMenuFor = statusMenu?.taskId ?? null;
  const item = useMemo(
    () => ({
      actions,
      names,
      now,
      timeZone,
      canUpdate,
      selectable: bulk,
      statusMenuFor,
    }),
    [actions, names, now, timeZone, canUpdate, bulk, statusMenuFor],
  );
  const toggleCollapsed = useCallback(
    (id: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  // The New Task button and the toolbar stay the same elements while typing in the search (each key
  // renders the screen), so React skips them and their icons.
  const newTask = useMemo(
    () =>
      canCreate && (
        <Button onClick={() => setDialog({ kind: 'create' })} aria-keyshortcuts="Control+N">
          <Plus className="h-4 w-4" aria-hidden="true" />
          New Task
        </Button>
      ),
    [canCreate],
  );
  const toolbar = useMemo(
    () => (
      <div
        className="flex flex-wrap items-center justify-between gap-2"
        role="toolbar"
        aria-label="Task view"
      >
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setCollapsed(anyCollapsed ? NO_IDS : new Set(allIds))}>
            {anyCollapsed ? (
              <ChevronsUpDown className="h-4 w-4" aria-hidden="true" />
            ) : (
              <ChevronsDownUp className="h-4 w-4" aria-hidden="true" />
            )}
            {anyCollapsed ? 'Expand All' : 'Collapse All'}
          </Button>
          <Button
            variant={bulk ? 'default' : 'outline'}
            aria-pressed={bulk}
            onClick={() => {
              setBulk((b) => !b);
              setSelected(NO_IDS);
            }}
          >
            <ListChecks className="h-4 w-4" aria-hidden="true" />
            Bulk Edit
          </Button>
        </div>
        <ViewToggle choices={VIEW_CHOICES} value={view} onChange={setView} />
      </div>
    ),
    [anyCollapsed, allIds, bulk, view, setView],
  );
  const detailTask = dialog?.kind === 'detail' ? byId.get(dialog.id) : undefined;
  const close = () => setDialog(null);

  return (
    <TasksFrame actions={newTask}>
      <TaskTiles tiles={tiles} />

      {toolbar}

      <TaskFilterBar
        ref={searchRef}
        filters={filters}
        onChange={setFilters}
        onReset={reset}
        projects={projectChoices}
        people={assignable}
      />

      {bulk && (
        <BulkBar
          count={selected.size}
          shown={shown?.count ?? 0}
          people={assignable}
          canUpdate={canUpdate}
          canDelete={canDelete}
          onSelectAll={() => setSelected(new Set((shown?.list() ?? []).map((t) => t.id)))}
          onStatus={bulkStatus}
          onAssign={bulkAssign}
          onDelete={() => setDialog({ kind: 'bulk-delete', ids: selectedIds() })}
          onCancel={() => {
            setBulk(false);
            setSelected(NO_IDS);
          }}
        />
      )}

      {shown !== undefined && tasks !== undefined && (
        <p role="status" className="text-sm text-slate-600">
          Showing {shown.count} of {tasks.length} tasks
        </p>
      )}
      {shown === undefined ? (
        <p role="status" className="text-slate-600">
          Loading tasks...
        </p>
      ) : shown.count === 0 ? (
        <TaskEmptyState
          filters={filters}
          onClear={reset}
          onCreate={canCreate ? () => setDialog({ kind: 'create' }) : undefined}
        />
      ) : view === 'list' ? (
        <TaskListView
          groups={groups}
          collapsed={collapsed}
          onToggle={toggleCollapsed}
          item={item}
          selected={selected}
        />
      ) : (
        <TaskCanvasView
          tab={tab}
          onTab={setTab}
          groups={groups}
          overview={shown.list}
          projectNames={projectNames}
          item={item}
          selected={selected}
        />
      )}

      <StatusMenu
        target={statusMenu}
        task={statusMenuFor === null ? undefined : byId.get(statusMenuFor)}
        onClose={closeStatusMenu}
        setStatus={actions.setStatus}
      />

      <Suspense fallback={null}>
        {dialog?.kind === 'create' && (
          <TaskFormDialog
            open
            onOpenChange={(open) => !open && close()}
            title="Create New Task"
            submitLabel="Create Task"
            initial={newTaskForm(filters.project !== 'all' ? filters.project : null)}
            projects={projectChoices}
            managers={assignable}
            timeZone={timeZone}
            onSubmit={async (values: TaskFields) => {
              const id = newId();
              await write('tasks', 'create', id, values);
              void savedToast(id, { title: 'Task created successfully', description: values.title });
            }}
          />
        )}
        {dialog?.kind === 'edit' && (
          <TaskFormDialog
            open
            onOpenChange={(open) => !open && close()}
            title="Edit Task"
            submitLabel="Update Task"
            initial={taskToForm(dialog.task)}
            storedDueDate={dialog.task.dueDate}
            projects={projectChoices}
            managers={assignable}
            timeZone={timeZone}
            onSubmit={async (values, changed) => {
              await write('tasks', 'patch', dialog.task.id, changed);
              void savedToast(dialog.task.id, {
                title: 'Task updated successfully',
                description: values.title,
              });
            }}
          />
        )}
        {dialog?.kind === 'detail' && detailTask && (
          <TaskDetailDialog
            task={detailTask}
            onOpenChange={(open) => !open && close()}
            projectName={detailTask.projectId ? projectNames.get(detailTask.projectId) : undefined}
            names={names}
            now={now}
            timeZone={timeZone}
            canUpdate={canUpdate}
            canDelete={canDelete}
            onEdit={() => setDialog({ kind: 'edit', task: detailTask })}
            onToggleComplete={() => void setStatus(detailTask, toggledByQuickAction(detailTask.status))}
            onDelete={() => setDialog({ kind: 'delete', task: detailTask })}
            onHistory={() => setDialog({ kind: 'history', task: detailTask })}
          />
        )}
        {dialog?.kind === 'history' && (
          <RecordHistoryDialog
            open
            onOpenChange={(open) => !open && close()}
            table="tasks"
            rowId={dialog.task.id}
            recordName={dialog.task.title ?? 'Task'}
            fieldLabels={TASK_FIELD_LABELS}
            formatValue={(field, value) =>
              typeof value !== 'string'
                ? undefined
                : field === 'assigneeId'
                  ? names.get(value)
                  : field === 'projectId'
                    ? projectNames.get(value)
                    : undefined
            }
            onRestore={
              canUpdate
                ? (field, value) => write('tasks', 'patch', dialog.task.id, { [field]: value })
                : undefined
            }
          />
        )}
        {dialog?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && close()}
            title="Delete Task"
            description={`Are you sure you want to delete "${dialog.task.title ?? 'this task'}"? This action cannot be undone.`}
            confirmLabel="Delete Task"
            onConfirm={() => {
              const task = dialog.task;
              void write('tasks', 'delete', task.id).then(
                () => savedToast(task.id, { title: 'Task deleted', description: task.title ?? undefined }),
                (err: unknown) =>
                  toast({
                    title: 'Failed to delete task',
                    description: messageOf(err),
                    variant: 'destructive',
                  }),
              );
            }}
          />
        )}
        {dialog?.kind === 'bulk-delete' && (
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && close()}
            title="Delete Tasks"
            description={`Are you sure you want to delete ${dialog.ids.length} task(s)? This action cannot be undone.`}
            confirmLabel="Delete"
            onConfirm={() => void bulkDelete(dialog.ids)}
          />
        )}
      </Suspense>
    </TasksFrame>
  );
}
