import { memo } from 'react';
import { TASK_STATUSES } from '#shared/enums.ts';
import { isTaskOverdue, taskDueText } from '#shared/rules/due-date-text.ts';
import type { TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { badgeClass } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/cn.ts';
import { assigneeName } from '#web/features/projects/utils/assignee-name.ts';
import { priorityClass } from '#web/features/projects/utils/labels.ts';
import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS } from '#web/features/projects/utils/task-form.ts';
import { categoryWord } from '../utils/task-text.ts';

export const statusWord = (s: string | null | undefined): string =>
  TASK_STATUS_LABELS[(s ?? 'pending') as keyof typeof TASK_STATUS_LABELS] ?? s ?? 'Pending';
export const priorityWord = (p: string | null | undefined): string =>
  TASK_PRIORITY_LABELS[(p ?? 'medium') as keyof typeof TASK_PRIORITY_LABELS] ?? p ?? 'Medium';

export const selectClasses =
  'h-11 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600 disabled:opacity-50 md:h-9';

/** What every task row and card can do; passed down once instead of per-row closures. */
export interface TaskRowActions {
  open: (task: TaskRow) => void;
  setStatus: (task: TaskRow, status: string) => void;
  toggleSelected: (task: TaskRow) => void;
}

export interface TaskItemProps {
  task: TaskRow;
  actions: TaskRowActions;
  names: ReadonlyMap<string, string>;
  now: Date;
  timeZone: string;
  canUpdate: boolean;
  /** Bulk mode: a checkbox per task. */
  selectable: boolean;
  selected: boolean;
  /** Project name under the title (canvas cards, which are not grouped by project on every tab). */
  projectName?: string;
}

// The facts' icons (lucide's Calendar and User drawn the same), as elements made once: a row mounts or is
// refilled per scroll step and keystroke, and the icon components' class merging and node building per row
// showed in the profiles of /tasks at 10,000 tasks.
const ICON = {
  width: 24,
  height: 24,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  className: 'h-3 w-3 shrink-0',
  'aria-hidden': true,
} as const;
const CALENDAR_ICON = (
  <svg {...ICON}>
    <path d="M8 2v3M16 2v3M3 9h18" />
    <rect x="3" y="3" width="18" height="18" rx="2" />
  </svg>
);
const USER_ICON = (
  <svg {...ICON}>
    <path d="M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2" />
    <circle cx="12" cy="7" r="4" />
  </svg>
);
const SUBCONTRACTOR_BADGE = badgeClass('info', 'border border-blue-200');
const priorityBadge = (p: string | null | undefined) => badgeClass('outline', cn('border', priorityClass(p)));

/** Any status, set directly (spec 02 section 4). */
function StatusSelect({
  task,
  actions,
  disabled,
}: {
  task: TaskRow;
  actions: TaskRowActions;
  disabled: boolean;
}) {
  const title = task.title ?? 'Untitled task';
  return (
    <select
      aria-label={`Status of ${title}`}
      className={cn(selectClasses, 'w-32 shrink-0 md:w-36')}
      value={task.status ?? 'pending'}
      disabled={disabled}
      onChange={(e) => actions.setStatus(task, e.target.value)}
    >
      {TASK_STATUSES.map((s) => (
        <option key={s} value={s}>
          {statusWord(s)}
        </option>
      ))}
    </select>
  );
}

function Facts({
  task,
  names,
  now,
  timeZone,
  projectName,
  className,
}: Omit<TaskItemProps, 'actions' | 'canUpdate' | 'selectable' | 'selected'> & { className?: string }) {
  const overdue = isTaskOverdue({ status: task.status ?? '', dueDate: task.dueDate }, now, timeZone);
  // The row has a fixed height: facts that do not fit are clipped, so the unsent marker comes first.
  return (
    <div
      className={cn(
        'flex flex-wrap items-center gap-x-1.5 gap-y-0.5 overflow-hidden text-xs text-slate-600',
        className,
      )}
    >
      <UnsentMarker rowId={task.id} />
      {task.category === 'subcontractor' && <span className={SUBCONTRACTOR_BADGE}>Subcontractor</span>}
      <span className={priorityBadge(task.priority)}>{priorityWord(task.priority)}</span>
      <span
        className={cn(
          'inline-flex items-center gap-1 whitespace-nowrap',
          overdue && 'font-semibold text-red-700',
        )}
      >
        {CALENDAR_ICON}
        {taskDueText(task, now, timeZone)}
      </span>
      <span className="inline-flex items-center gap-1 whitespace-nowrap">
        {USER_ICON}
        {assigneeName(task.assigneeId, names)}
      </span>
      {projectName && <span className="truncate">{projectName}</span>}
    </div>
  );
}

function SelectBox({ task, actions, selected }: Pick<TaskItemProps, 'task' | 'actions' | 'selected'>) {
  return (
    <label className="-m-2 flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
      <input
        type="checkbox"
        className="h-5 w-5 accent-teal-700"
        checked={selected}
        onChange={() => actions.toggleSelected(task)}
        aria-label={`Select ${task.title ?? 'Untitled task'}`}
      />
    </label>
  );
}

function TitleButton({
  task,
  actions,
  className,
}: {
  task: TaskRow;
  actions: TaskRowActions;
  className?: string;
}) {
  const title = task.title ?? 'Untitled task';
  return (
    <button
      type="button"
      title={title}
      className={cn(
        'min-h-11 min-w-11 text-left text-sm font-medium text-slate-900 hover:text-teal-800 hover:underline focus-visible:outline-2 focus-visible:outline-teal-600 md:min-h-0',
        className,
      )}
      onClick={() => actions.open(task)}
    >
      {title}
    </button>
  );
}

/**
 * One task in the list view: title (opens the detail dialog), facts, status select. Exactly as tall as the
 * virtualizer's box (LIST_ITEM_HEIGHT): a one-line title and two lines of facts on phones, one of each
 * from md.
 */
export const TaskListRow = memo(function TaskListRow(props: TaskItemProps) {
  const { task, actions, canUpdate, selectable, selected } = props;
  return (
    <article
      aria-label={task.title ?? 'Untitled task'}
      className={cn(
        'flex h-full items-center gap-3 overflow-hidden border-x border-b border-slate-200 bg-white px-3',
        selected && 'bg-teal-50',
      )}
    >
      {selectable && <SelectBox task={task} actions={actions} selected={selected} />}
      <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
        <TitleButton task={task} actions={actions} className="truncate" />
        <Facts {...props} className="max-h-11 md:max-h-[1.375rem]" />
      </div>
      <StatusSelect task={task} actions={actions} disabled={!canUpdate} />
    </article>
  );
});

/** One task in the canvas view: a card with the same parts, as tall as its row (CARD_HEIGHT). */
export const TaskCard = memo(function TaskCard(props: TaskItemProps) {
  const { task, actions, canUpdate, selectable, selected } = props;
  return (
    <article
      aria-label={task.title ?? 'Untitled task'}
      className={cn(
        'flex h-full min-w-0 flex-col gap-2 overflow-hidden rounded-lg border border-slate-200 bg-white p-3 shadow-sm',
        selected && 'border-teal-600 bg-teal-50',
      )}
    >
      <div className="flex items-start gap-2">
        {selectable && <SelectBox task={task} actions={actions} selected={selected} />}
        <TitleButton task={task} actions={actions} className="line-clamp-2 wrap-anywhere" />
      </div>
      {task.description && <p className="line-clamp-2 text-sm text-slate-600">{task.description}</p>}
      <Facts {...props} className="max-h-11" />
      <div className="mt-auto flex items-center justify-between gap-2">
        <span className="text-xs text-slate-500">{categoryWord(task.category)}</span>
        <StatusSelect task={task} actions={actions} disabled={!canUpdate} />
      </div>
    </article>
  );
});

/** A project's completed share as a ring (spec 02 section 2), in the group's spec colour. */
export function ProgressRing({
  percent,
  colour,
  size = 36,
}: {
  percent: number;
  colour: string;
  size?: number;
}) {
  const r = (size - 6) / 2;
  const c = 2 * Math.PI * r;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true" className="shrink-0">
      <circle cx={size / 2} cy={size / 2} r={r} fill="none" stroke="#e2e8f0" strokeWidth={4} />
      <circle
        data-testid="progress-ring"
        cx={size / 2}
        cy={size / 2}
        r={r}
        fill="none"
        stroke={colour}
        strokeWidth={4}
        strokeDasharray={`${(c * percent) / 100} ${c}`}
        transform={`rotate(-90 ${size / 2} ${size / 2})`}
      />
      <text x="50%" y="50%" dominantBaseline="central" textAnchor="middle" fontSize={size / 4} fill="#334155">
        {percent}%
      </text>
    </svg>
  );
}

/** A project's completed share as a bar, same colour as its ring. */
export function ProgressBar({ percent, colour, label }: { percent: number; colour: string; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        data-testid="progress-fill"
        className="h-full"
        style={{ width: `${percent}%`, backgroundColor: colour }}
      />
    </div>
  );
}
