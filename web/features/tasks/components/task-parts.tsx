import { memo, useEffect } from 'react';
import { TASK_STATUSES } from '#shared/enums.ts';
import { isTaskOverdue, taskDueText } from '#shared/rules/due-date-text.ts';
import type { TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { badgeClass } from '#web/components/ui/badge.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
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
  /** Opens the list's status menu for the task, beside the button pressed. */
  openStatus: (task: TaskRow, button: HTMLButtonElement) => void;
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
  /** The task whose status menu is open, if any: its button says so (aria-expanded). */
  statusMenuFor?: string | null;
}

const SUBCONTRACTOR_BADGE = badgeClass('info', 'border border-blue-200');
const priorityBadge = (p: string | null | undefined) => badgeClass('outline', cn('border', priorityClass(p)));

const STATUS_BUTTON = cn(selectClasses, 'select-chevron w-32 shrink-0 truncate pr-7 text-left md:w-36');

/**
 * Any status, set directly (spec 02 section 4): a button showing the status that opens the list's one
 * status menu (`StatusMenu`). A native `<select>` per row was the row's costliest part while scrolling
 * 10,000 tasks: with its options and its own shadow tree it was a third of the elements the browser
 * restyled per scroll step, and a menu component per row (Radix's) cost as much again in script per
 * refilled row (B13, ADR 023 round 6). The menu's items exist only while it is open.
 */
function StatusButton({
  task,
  actions,
  disabled,
  expanded,
}: {
  task: TaskRow;
  actions: TaskRowActions;
  disabled: boolean;
  expanded: boolean;
}) {
  const word = statusWord(task.status);
  const open = (e: React.SyntheticEvent<HTMLButtonElement>) => actions.openStatus(task, e.currentTarget);
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={expanded}
      aria-label={`Status of ${task.title ?? 'Untitled task'}: ${word}`}
      className={STATUS_BUTTON}
      disabled={disabled}
      onClick={open}
      onKeyDown={(e) => {
        // As a menu button opens with the arrows too (WAI-ARIA menu button pattern).
        if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
        e.preventDefault();
        open(e);
      }}
    >
      {word}
    </button>
  );
}

/** The task whose status menu is open, the button that opened it (focus goes back there) and its box then. */
export interface StatusMenuTarget {
  taskId: string;
  button: HTMLButtonElement;
  box: DOMRect;
}

/** What a row's `StatusButton` opens: measured once, as it is pressed. */
export function statusMenuTarget(task: TaskRow, button: HTMLButtonElement): StatusMenuTarget {
  return { taskId: task.id, button, box: button.getBoundingClientRect() };
}

/**
 * The one status menu of a list of tasks, opened by a row's `StatusButton` beside that button. A Radix
 * menu needs a trigger to place itself and to label the menu: a box laid exactly over the row's button
 * stands in for it (the page does not scroll while the menu is open, so the box stays over it), and the
 * focus goes back to the row's button when the menu closes. Memoised: the screen renders again at each
 * key typed in the search, and a closed menu has nothing to change.
 */
export const StatusMenu = memo(function StatusMenu({
  target,
  task,
  onClose,
  setStatus,
}: {
  target: StatusMenuTarget | null;
  /** The target's task as it is now (a sync may change or delete it while the menu is open). */
  task: TaskRow | undefined;
  onClose: () => void;
  setStatus: (task: TaskRow, status: string) => void;
}) {
  const open = target !== null && task !== undefined;
  // The box is where the button was when the menu opened: a window resized or turned moves the button, so
  // the menu closes then rather than point at nothing.
  useEffect(() => {
    if (!open) return;
    window.addEventListener('resize', onClose);
    return () => window.removeEventListener('resize', onClose);
  }, [open, onClose]);
  // The menu stays mounted while closed: Radix learns that a keyboard is in use from the keys pressed
  // while it exists, and then opens on the first item, as a menu button opened by a key should.
  const box = target?.box;
  return (
    <DropdownMenu open={open} onOpenChange={(next) => !next && onClose()}>
      <DropdownMenuTrigger asChild>
        {/* Hidden from assistive technology: the row's button is the control they know; this box only
            names the menu (aria-labelledby) and places it. */}
        <span
          aria-hidden="true"
          aria-label={open ? `Status of ${task.title ?? 'Untitled task'}` : undefined}
          className="pointer-events-none fixed"
          style={box && { left: box.left, top: box.top, width: box.width, height: box.height }}
        />
      </DropdownMenuTrigger>
      {open && <TaskStatusMenuContent task={task} button={target.button} setStatus={setStatus} />}
    </DropdownMenu>
  );
});

function TaskStatusMenuContent({
  task,
  button,
  setStatus,
}: {
  task: TaskRow;
  button: HTMLButtonElement;
  setStatus: (task: TaskRow, status: string) => void;
}) {
  const status = task.status ?? 'pending';
  return (
    <DropdownMenuContent
      align="end"
      onCloseAutoFocus={(e) => {
        e.preventDefault();
        if (button.isConnected) button.focus();
      }}
    >
      <DropdownMenuRadioGroup value={status} onValueChange={(next) => setStatus(task, next)}>
        {TASK_STATUSES.map((s) => (
          <DropdownMenuRadioItem key={s} value={s}>
            {statusWord(s)}
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
    </DropdownMenuContent>
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
      {/* The icons are the spans' backgrounds (styles.css, `.fact-due`): as SVG elements they were six of
          a row's elements to restyle per scroll step. */}
      <span
        className={
          overdue
            ? 'fact-due-late font-semibold whitespace-nowrap text-red-700'
            : 'fact-due whitespace-nowrap'
        }
      >
        {taskDueText(task, now, timeZone)}
      </span>
      <span className="fact-person whitespace-nowrap">{assigneeName(task.assigneeId, names)}</span>
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
  const { task, actions, canUpdate, selectable, selected, statusMenuFor } = props;
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
      <StatusButton
        task={task}
        actions={actions}
        disabled={!canUpdate}
        expanded={statusMenuFor === task.id}
      />
    </article>
  );
});

/** One task in the canvas view: a card with the same parts, as tall as its row (CARD_HEIGHT). */
export const TaskCard = memo(function TaskCard(props: TaskItemProps) {
  const { task, actions, canUpdate, selectable, selected, statusMenuFor } = props;
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
        <StatusButton
          task={task}
          actions={actions}
          disabled={!canUpdate}
          expanded={statusMenuFor === task.id}
        />
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
