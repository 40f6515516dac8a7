import { useId } from 'react';
import { Calendar, Flag, FolderOpen, User } from 'lucide-react';
import type { TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatDueDate } from '#web/features/projects/utils/dates.ts';
import { TASK_STATUS_CLASSES } from '#web/features/projects/utils/labels.ts';
import {
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  type TaskPriority,
  type TaskStatus,
} from '#web/features/projects/utils/task-form.ts';

/** The priority dot's colour: grey low, blue medium, orange high, red critical. */
const PRIORITY_DOT: Record<string, string> = {
  low: 'bg-slate-400',
  medium: 'bg-blue-500',
  high: 'bg-orange-500',
  critical: 'bg-red-600',
};

const statusLabel = (s: string | null | undefined) =>
  TASK_STATUS_LABELS[(s ?? 'pending') as TaskStatus] ?? s ?? 'Pending';
const priorityLabel = (p: string | null | undefined) =>
  TASK_PRIORITY_LABELS[(p ?? 'medium') as TaskPriority] ?? p ?? 'Medium';

const dayAndTime = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});

/**
 * A due date with its time of day, as the Weekly View shows it ('Wed, Nov 25, 17:00 UTC'). Due dates name
 * their UTC day everywhere (shared/rules/dates.ts), so the time is read in UTC too and says so.
 */
export function dueDateAndTime(iso: string | null | undefined): string | null {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? null : `${dayAndTime.format(t)} UTC`;
}

export interface SubTaskRowProps {
  task: TaskRow;
  projectName: string | null;
  assigneeName: string;
  /** Show the due date with its time (Weekly View) rather than the day alone. */
  withTime?: boolean;
  /** Not completed and due before today in the company zone (shared/rules/due-date-text.ts). */
  overdue?: boolean;
  canUpdate: boolean;
  onToggle: (task: TaskRow, completed: boolean) => void;
  onOpen: (task: TaskRow) => void;
}

/**
 * One subcontractor task (spec 02 section 2): completion checkbox, priority dot, status badge, Milestone
 * badge when flagged; the row opens 'Edit Subcontractor Task'.
 */
export function SubTaskRow({
  task,
  projectName,
  assigneeName,
  withTime,
  overdue,
  canUpdate,
  onToggle,
  onOpen,
}: SubTaskRowProps) {
  const title = task.title || 'Untitled task';
  const done = task.status === 'completed';
  const due = withTime ? dueDateAndTime(task.dueDate) : formatDueDate(task.dueDate);
  const priority = task.priority ?? 'medium';
  // The button is named by what it shows, title first, so a voice user can say what they see (WCAG 2.5.3);
  // what it does is its description.
  const about = useId();
  return (
    <li className="flex items-start gap-2 py-2" data-task-id={task.id}>
      <label className="flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
        <input
          type="checkbox"
          className="h-5 w-5 accent-teal-700"
          checked={done}
          disabled={!canUpdate}
          aria-label={`Completed: ${title}`}
          onChange={(ev) => onToggle(task, ev.target.checked)}
        />
      </label>
      <button
        type="button"
        className="grid min-h-11 min-w-0 flex-1 gap-1 rounded-md px-1 py-1 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600"
        onClick={() => onOpen(task)}
        aria-describedby={`${about}-hint`}
      >
        <span id={`${about}-hint`} hidden>
          Open task
        </span>
        <span className="flex min-w-0 items-center gap-2">
          <span
            className={cn(
              'min-w-0 text-sm font-medium wrap-anywhere text-slate-900',
              done && 'text-slate-500 line-through',
            )}
          >
            {title}
          </span>
        </span>{' '}
        {/* Spaces between the facts: the description reads them as words, not run together. */}
        <span id={`${about}-facts`} className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
          {/* The priority in words beside its dot: the dot's colour alone is lost on a colour-blind user. */}
          <span data-testid="priority" className="inline-flex items-center gap-1 font-medium text-slate-700">
            <span
              aria-hidden="true"
              className={cn(
                'h-2.5 w-2.5 shrink-0 rounded-full',
                PRIORITY_DOT[priority] ?? PRIORITY_DOT.medium,
              )}
            />
            {priorityLabel(priority)} <span className="sr-only">priority</span>
          </span>{' '}
          <Badge variant="outline" className={cn('border', TASK_STATUS_CLASSES[task.status ?? 'pending'])}>
            {statusLabel(task.status)}
          </Badge>{' '}
          {task.isMilestone && (
            <Badge variant="outline" className="border border-purple-200 bg-purple-100 text-purple-800">
              <Flag className="mr-1 h-3 w-3" aria-hidden="true" />
              Milestone
            </Badge>
          )}{' '}
          <UnsentMarker rowId={task.id} />{' '}
          <span className="inline-flex items-center gap-1">
            <Calendar className="h-3 w-3" aria-hidden="true" />
            {due ? `Due ${due}` : 'No due date'}
          </span>{' '}
          {overdue && <span className="font-semibold text-red-700">Overdue</span>}{' '}
          {projectName && (
            <span className="inline-flex min-w-0 items-center gap-1">
              <FolderOpen className="h-3 w-3 shrink-0" aria-hidden="true" />
              <span className="min-w-0 wrap-anywhere">{projectName}</span>
            </span>
          )}{' '}
          <span className="inline-flex items-center gap-1">
            <User className="h-3 w-3" aria-hidden="true" />
            {assigneeName}
          </span>
        </span>
      </button>
    </li>
  );
}

/** A list of task rows with its empty text. */
export function SubTaskList({
  tasks,
  empty,
  label,
  row,
}: {
  tasks: readonly TaskRow[];
  empty: string;
  label: string;
  row: (task: TaskRow) => React.ReactNode;
}) {
  if (tasks.length === 0) return <p className="py-3 text-sm text-slate-600">{empty}</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label={label}>
      {tasks.map(row)}
    </ul>
  );
}
