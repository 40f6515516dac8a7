import { CheckSquare, Square } from 'lucide-react';
import { priorityColour } from '#shared/rules/dashboard-selections.ts';
import { dueDateText } from '#shared/rules/due-date-text.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { cn } from '#web/lib/cn.ts';
import type { DashboardTaskView, TaskWidgets } from '../hooks/use-field-data.ts';
import { Widget } from './widget.tsx';

export interface TaskListContext {
  now: Date;
  timeZone: string;
  projectNames: ReadonlyMap<string, string>;
}

const PRIORITY_LABEL: Record<string, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

function PriorityBadge({ priority }: { priority: string }) {
  const red = priorityColour(priority) === 'red';
  return (
    <Badge variant={red ? 'destructive' : 'info'} className="shrink-0">
      {PRIORITY_LABEL[priority] ?? priority}
    </Badge>
  );
}

/** A task row: the title, its project, its priority and its due text (spec 01 section 9 wording). */
function TaskItem({
  task,
  ctx,
  onToggle,
}: {
  task: DashboardTaskView;
  ctx: TaskListContext;
  onToggle?: (task: DashboardTaskView) => void;
}) {
  const done = task.status === 'completed';
  const project = task.projectId ? ctx.projectNames.get(task.projectId) : undefined;
  return (
    <li className="flex items-center gap-2 border-b border-slate-100 py-1.5 last:border-b-0">
      {onToggle && (
        <button
          type="button"
          role="checkbox"
          aria-checked={done}
          aria-label={`Completed: ${task.title}`}
          onClick={() => onToggle(task)}
          className="-ml-2 flex h-11 w-11 shrink-0 items-center justify-center rounded text-teal-700 focus-visible:outline-2 focus-visible:outline-teal-600 md:h-9 md:w-9"
        >
          {done ? (
            <CheckSquare className="h-5 w-5" aria-hidden="true" />
          ) : (
            <Square className="h-5 w-5" aria-hidden="true" />
          )}
        </button>
      )}
      <div className="min-w-0 flex-1">
        <p
          className={cn('truncate text-sm font-medium text-slate-900', done && 'text-slate-500 line-through')}
        >
          {task.title}
        </p>
        <p className="truncate text-xs text-slate-600">
          {done ? 'Completed' : dueDateText(task.dueDate, ctx.now, ctx.timeZone)}
          {project && ` · ${project}`}
        </p>
      </div>
      <PriorityBadge priority={task.priority} />
    </li>
  );
}

function TaskList({
  tasks,
  ctx,
  onToggle,
}: {
  tasks: DashboardTaskView[];
  ctx: TaskListContext;
  onToggle?: (task: DashboardTaskView) => void;
}) {
  return (
    <ul>
      {tasks.map((t) => (
        <TaskItem key={t.id} task={t} ctx={ctx} onToggle={onToggle} />
      ))}
    </ul>
  );
}

/** The task counts of the Task Management tab, with 'Completed Tasks N' computed (DECISIONS.md). */
export function TaskSummary({ tasks }: { tasks: TaskWidgets | undefined }) {
  const items: [string, number | undefined][] = [
    ['Pending Tasks', tasks?.pendingTasks],
    ['Due Today', tasks?.pendingDueToday],
    ['Expired Tasks', tasks?.expiredCount],
    ['Completed Tasks', tasks?.completedTasks],
  ];
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map(([label, value]) => (
        <Card key={label} role="group" aria-label={label} className="p-4">
          <p className="text-sm font-medium text-slate-600">{label}</p>
          {value === undefined ? (
            <div
              role="status"
              aria-label={`Loading ${label}`}
              className="mt-2 h-8 w-12 animate-pulse rounded bg-slate-200"
            />
          ) : (
            <p className="mt-1 text-3xl font-semibold text-slate-900 tabular-nums">{value}</p>
          )}
        </Card>
      ))}
    </div>
  );
}

/** Today's tasks: up to 4 due on the company's current day; the checkbox toggles completed and pending. */
export function TodaysTasks({
  tasks,
  ctx,
  onToggle,
}: {
  tasks: TaskWidgets | undefined;
  ctx: TaskListContext;
  onToggle?: (task: DashboardTaskView) => void;
}) {
  return (
    <Widget
      title="Today's Tasks"
      action={{ label: 'View All', to: '/tasks?due=today' }}
      loading={tasks === undefined}
      empty={tasks?.today.length === 0 && 'No tasks due today.'}
    >
      {tasks && <TaskList tasks={tasks.today} ctx={ctx} onToggle={onToggle} />}
    </Widget>
  );
}

/** Expired tasks: up to 5 open tasks due before today, the longest overdue first. */
export function ExpiredTasks({ tasks, ctx }: { tasks: TaskWidgets | undefined; ctx: TaskListContext }) {
  const more = tasks ? tasks.expiredCount - tasks.expired.length : 0;
  return (
    <Widget
      title="Expired Tasks"
      action={{ label: 'View All', to: '/tasks?due=overdue' }}
      loading={tasks === undefined}
      empty={tasks?.expired.length === 0 && 'No expired tasks. Everything is on schedule.'}
    >
      {tasks && <TaskList tasks={tasks.expired} ctx={ctx} />}
      {more > 0 && <p className="pt-2 text-xs text-slate-600">{more} more expired</p>}
    </Widget>
  );
}

/** The next 3 priority tasks: open, due today or later, highest priority then earliest due first. */
export function NextPriorityTasks({ tasks, ctx }: { tasks: TaskWidgets | undefined; ctx: TaskListContext }) {
  return (
    <Widget
      title="Next Priority Tasks"
      action={{ label: 'View All', to: '/tasks' }}
      loading={tasks === undefined}
      empty={tasks?.next.length === 0 && 'No upcoming tasks.'}
    >
      {tasks && <TaskList tasks={tasks.next} ctx={ctx} />}
    </Widget>
  );
}
