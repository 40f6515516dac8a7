import { CheckCircle2, History, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { taskDueText } from '#shared/rules/due-date-text.ts';
import type { TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { assigneeName } from '#web/features/projects/utils/assignee-name.ts';
import { formatDueDate } from '#web/features/projects/utils/dates.ts';
import { priorityClass, TASK_STATUS_CLASSES } from '#web/features/projects/utils/labels.ts';
import { cn } from '#web/lib/cn.ts';
import { formatInTimeZone } from '../utils/format.ts';
import { categoryWord } from '../utils/task-text.ts';
import { priorityWord, statusWord } from './task-parts.tsx';

export interface TaskDetailDialogProps {
  task: TaskRow;
  onOpenChange: (open: boolean) => void;
  projectName: string | undefined;
  names: ReadonlyMap<string, string>;
  now: Date;
  timeZone: string;
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onToggleComplete: () => void;
  onDelete: () => void;
  /** Opens the task's History (every synced record has one, DESIGN.md section 7). */
  onHistory: () => void;
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * The wide task detail dialog (spec 02 section 2): badges for priority, status and category; a side panel
 * with due date, project, created date ('Unknown' if missing) and Quick Actions.
 */
export function TaskDetailDialog({
  task,
  onOpenChange,
  projectName,
  names,
  now,
  timeZone,
  canUpdate,
  canDelete,
  onEdit,
  onToggleComplete,
  onDelete,
  onHistory,
}: TaskDetailDialogProps) {
  const completed = task.status === 'completed';
  const due = formatDueDate(task.dueDate);
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={task.title ?? 'Untitled task'}
        description="Task details"
        hideDescription
        className="max-w-4xl"
      >
        <div className="flex flex-wrap gap-2" aria-label="Badges">
          <Badge variant="outline" className={cn('border', priorityClass(task.priority))}>
            {priorityWord(task.priority)} Priority
          </Badge>
          <Badge variant="outline" className={cn('border', TASK_STATUS_CLASSES[task.status ?? 'pending'])}>
            {statusWord(task.status)}
          </Badge>
          <Badge variant="secondary">{categoryWord(task.category)}</Badge>
          <UnsentMarker rowId={task.id} />
        </div>
        <div className="grid gap-6 md:grid-cols-[1fr_16rem]">
          <section aria-label="Description" className="grid content-start gap-2">
            <h3 className="text-sm font-semibold text-slate-900">Description</h3>
            <p className="text-sm whitespace-pre-wrap text-slate-700">
              {task.description || 'No description provided.'}
            </p>
          </section>
          <aside className="grid content-start gap-4 rounded-lg bg-slate-50 p-4">
            <dl className="grid gap-3">
              <Fact term="Due Date">
                {due ? (
                  <>
                    {due} <span className="text-slate-600">({taskDueText(task, now, timeZone)})</span>
                  </>
                ) : (
                  'No due date'
                )}
              </Fact>
              <Fact term="Project">{projectName ?? (task.projectId ? 'Unknown Project' : 'No Project')}</Fact>
              <Fact term="Assignee">{assigneeName(task.assigneeId, names)}</Fact>
              <Fact term="Created">{formatInTimeZone(task.createdAt, timeZone) ?? 'Unknown'}</Fact>
            </dl>
            <div className="grid gap-2">
              <h3 className="text-sm font-semibold text-slate-900">Quick Actions</h3>
              {canUpdate && (
                <Button variant="outline" onClick={onToggleComplete}>
                  {completed ? (
                    <RotateCcw className="h-4 w-4" aria-hidden="true" />
                  ) : (
                    <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
                  )}
                  {completed ? 'Mark Incomplete' : 'Mark Complete'}
                </Button>
              )}
              {canUpdate && (
                <Button variant="outline" onClick={onEdit}>
                  <Pencil className="h-4 w-4" aria-hidden="true" />
                  Edit Task
                </Button>
              )}
              <Button variant="outline" onClick={onHistory}>
                <History className="h-4 w-4" aria-hidden="true" />
                History
              </Button>
              {canDelete && (
                <Button variant="destructive" onClick={onDelete}>
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                  Delete Task
                </Button>
              )}
            </div>
          </aside>
        </div>
      </DialogContent>
    </Dialog>
  );
}
