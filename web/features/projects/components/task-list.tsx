import { Calendar, History, Pencil, Trash2, User } from 'lucide-react';
import type { TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { assigneeName } from '../utils/assignee-name.ts';
import { formatDueDate } from '../utils/dates.ts';
import { priorityClass, TASK_STATUS_CLASSES } from '../utils/labels.ts';
import {
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
  type TaskPriority,
  type TaskStatus,
} from '../utils/task-form.ts';

export interface TaskListProps {
  tasks: TaskRow[] | undefined;
  managers: ReadonlyMap<string, string>;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (task: TaskRow) => void;
  onDelete: (task: TaskRow) => void;
  onHistory?: (task: TaskRow) => void;
}

const statusLabel = (s: string | undefined) =>
  TASK_STATUS_LABELS[(s ?? 'pending') as TaskStatus] ?? s ?? 'Pending';
const priorityLabel = (p: string | undefined) =>
  TASK_PRIORITY_LABELS[(p ?? 'medium') as TaskPriority] ?? p ?? 'Medium';

/** The expandable task list of a project card (spec 01 section 2). */
export function TaskList({
  tasks,
  managers,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  onHistory,
}: TaskListProps) {
  if (tasks === undefined) return <p className="text-sm text-slate-600">Loading tasks...</p>;
  if (tasks.length === 0) return <p className="py-2 text-sm text-slate-600">No tasks yet</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Tasks">
      {tasks.map((task) => {
        const title = task.title ?? 'Untitled task';
        const due = formatDueDate(task.dueDate);
        return (
          <li
            key={task.id}
            className="flex items-start justify-between gap-2 py-2"
            aria-labelledby={`task-${task.id}`}
          >
            <div className="grid min-w-0 gap-1">
              <p id={`task-${task.id}`} className="text-sm font-medium wrap-anywhere text-slate-900">
                {title}
              </p>
              <div className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
                <Badge
                  variant="outline"
                  className={cn('border', TASK_STATUS_CLASSES[task.status ?? 'pending'])}
                >
                  {statusLabel(task.status)}
                </Badge>
                <UnsentMarker rowId={task.id} />
                <Badge variant="outline" className={cn('border', priorityClass(task.priority))}>
                  {priorityLabel(task.priority)}
                </Badge>
                <span className="inline-flex items-center gap-1">
                  <Calendar className="h-3 w-3" aria-hidden="true" />
                  {due ? `Due ${due}` : 'No due date'}
                </span>
                <span className="inline-flex items-center gap-1">
                  <User className="h-3 w-3" aria-hidden="true" />
                  {assigneeName(task.assigneeId, managers)}
                </span>
              </div>
            </div>
            <div className="flex shrink-0 gap-1">
              {canEdit && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="md:h-8 md:w-8"
                  aria-label="Edit task"
                  onClick={() => onEdit(task)}
                >
                  <Pencil className="h-4 w-4" aria-hidden="true" />
                </Button>
              )}
              {onHistory && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="h-8 w-8"
                  aria-label="Task history"
                  onClick={() => onHistory(task)}
                >
                  <History className="h-4 w-4" aria-hidden="true" />
                </Button>
              )}
              {canDelete && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="text-red-600 hover:bg-red-50 md:h-8 md:w-8"
                  aria-label="Delete task"
                  onClick={() => onDelete(task)}
                >
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                </Button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
