import { isTaskOverdue } from '#shared/rules/due-date-text.ts';
import { timelineDueText, upcomingLowerBound } from '#shared/rules/timeline.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { cn } from '#web/lib/cn.ts';
import { useCountDueBefore, useDatedTaskIds } from '../hooks/use-schedule-data.ts';
import { formatDay } from '../utils/format.ts';
import { CategoryChip, StatusBadge } from './badges.tsx';
import { DatedTaskList } from './dated-task-list.tsx';

export interface TimelineTabProps {
  db: SyncDb;
  now: Date;
  timeZone: string;
  projects: Map<string, ProjectRow>;
  onUpdateTask: (task: TaskRow) => void;
}

/** Every task with a due date, as a horizontal chain by due date (spec 02 section 2). */
export function TimelineTab({ db, now, timeZone, projects, onUpdateTask }: TimelineTabProps) {
  const ids = useDatedTaskIds(db);
  // The Timeline opens at today, not at the oldest task (phone review): earlier tasks are a scroll back.
  const past = useCountDueBefore(db, upcomingLowerBound(now, timeZone));
  if (ids === undefined || past === undefined) return null;
  if (ids.length === 0) return <p className="text-sm text-slate-600">No tasks with a due date yet</p>;
  return (
    <DatedTaskList
      db={db}
      ids={ids}
      horizontal
      startIndex={Math.min(past, ids.length - 1)}
      itemSize={252}
      label="Timeline"
      renderItem={(task) => {
        const overdue = isTaskOverdue({ status: task.status ?? '', dueDate: task.dueDate }, now, timeZone);
        return (
          <article
            aria-label={task.title ?? 'Task'}
            className={cn(
              'relative flex h-full flex-col gap-2 rounded-md border bg-white p-3',
              overdue ? 'border-red-300' : 'border-slate-200',
            )}
          >
            <h2 className="font-medium wrap-anywhere text-slate-900">{task.title}</h2>
            <p className="text-sm text-slate-600">
              {projects.get(task.projectId ?? '')?.name ?? 'No project'}
            </p>
            <p className="text-sm text-slate-900">{formatDay(task.dueDate)}</p>
            <div className="flex flex-wrap gap-1">
              <CategoryChip category={task.category} />
              <StatusBadge status={task.status} />
            </div>
            <p className={cn('text-sm font-medium', overdue ? 'text-red-700' : 'text-slate-700')}>
              {timelineDueText(task, now, timeZone)}
            </p>
            <UnsentMarker rowId={task.id} className="self-start" />
            <button
              type="button"
              className="mt-auto min-h-11 self-start rounded-md text-sm font-medium text-teal-700 underline-offset-4 hover:underline"
              onClick={() => onUpdateTask(task)}
            >
              Update schedule
            </button>
          </article>
        );
      }}
    />
  );
}
