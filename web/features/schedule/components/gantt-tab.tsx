import { ChevronDown, ChevronUp, Equal, TriangleAlert, type LucideIcon } from 'lucide-react';
import { GANTT_LEGEND, ganttBar, ganttDays, type GanttColour } from '#shared/rules/gantt.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';
import { cn } from '#web/lib/cn.ts';
import { upcomingLowerBound } from '#shared/rules/timeline.ts';
import { useGanttTaskIds } from '../hooks/use-schedule-data.ts';
import { formatColumnDay, formatDay } from '../utils/format.ts';
import { DatedTaskList } from './dated-task-list.tsx';

/**
 * Bar colours: green completed (and low), red overdue, else the priority's colour. Orange is a shade darker
 * than 500, which was under 3:1 against the chart's background and behind the bar's white shape.
 */
export const GANTT_COLOURS: Record<GanttColour, string> = {
  high: 'bg-orange-600',
  medium: 'bg-blue-500',
  'low-completed': 'bg-green-600',
  overdue: 'bg-red-600',
};

/**
 * Each colour's shape, drawn on its bars and beside its legend entry: a colour-blind user tells an overdue
 * bar from a high-priority one by the warning sign, not by red against orange.
 */
export const GANTT_SHAPES: Record<GanttColour, LucideIcon> = {
  high: ChevronUp,
  medium: Equal,
  'low-completed': ChevronDown,
  overdue: TriangleAlert,
};

const COLOUR_WORDS: Record<GanttColour, string> = {
  high: 'high priority',
  medium: 'medium priority',
  'low-completed': 'low priority or completed',
  overdue: 'overdue',
};

export interface GanttTabProps {
  db: SyncDb;
  now: Date;
  timeZone: string;
  projects: Map<string, ProjectRow>;
  onUpdateTask: (task: TaskRow) => void;
}

/** The 7-day Gantt chart (spec 02 sections 2 and 9): today and the next 6 days of the company's zone. */
export function GanttTab({ db, now, timeZone, projects, onUpdateTask }: GanttTabProps) {
  const ids = useGanttTaskIds(db, upcomingLowerBound(now, timeZone));
  const days = ganttDays(now, timeZone);
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {GANTT_LEGEND.map((item) => {
          const Shape = GANTT_SHAPES[item.colour];
          return (
            <li key={item.colour} className="flex items-center gap-1.5">
              <span
                data-testid="gantt-legend-swatch"
                data-colour={item.colour}
                className={cn(
                  'inline-flex h-4 w-4 items-center justify-center rounded-sm text-white',
                  GANTT_COLOURS[item.colour],
                )}
                aria-hidden="true"
              >
                <Shape className="h-3 w-3" strokeWidth={3} />
              </span>
              {item.label}
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-slate-600">
        Open overdue tasks sit on Today; tasks completed before today are left out.
      </p>
      <div className="grid grid-cols-[minmax(6rem,30%)_1fr] gap-2 text-xs font-medium text-slate-600 sm:grid-cols-[12rem_1fr]">
        <span>Task</span>
        <ol aria-label="Days" className="grid grid-cols-7">
          {days.map((day, i) => (
            // 11 px, tightly set, on a phone: a seventh of 390 px is about 35 px, and "Today" in 12 px
            // semibold ran into the next day's name.
            <li
              key={day}
              className={cn(
                'min-w-0 text-center text-[11px] leading-tight tracking-tight sm:text-xs sm:tracking-normal',
                i === 0 && 'font-semibold text-teal-800',
              )}
            >
              {i === 0 ? 'Today' : formatColumnDay(day)}
            </li>
          ))}
        </ol>
      </div>
      {ids === undefined ? null : ids.length === 0 ? (
        <p className="text-sm text-slate-600">No open or upcoming tasks with a due date</p>
      ) : (
        <DatedTaskList
          db={db}
          ids={ids}
          itemSize={52}
          label="Gantt chart"
          renderItem={(task) => {
            const bar = ganttBar(task, now, timeZone);
            if (!bar) return null;
            const project = projects.get(task.projectId ?? '')?.name ?? 'No project';
            const Shape = GANTT_SHAPES[bar.colour];
            return (
              <div className="grid h-11 grid-cols-[minmax(6rem,30%)_1fr] items-center gap-2 sm:grid-cols-[12rem_1fr]">
                <div className="min-w-0 text-sm">
                  <p className="truncate font-medium text-slate-900">{task.title}</p>
                  <p className="truncate text-xs text-slate-500">{project}</p>
                </div>
                <div className="relative h-11 overflow-hidden rounded bg-slate-50 bg-[linear-gradient(to_right,#e2e8f0_1px,transparent_1px)] bg-[length:calc(100%/7)_100%]">
                  <button
                    type="button"
                    data-testid="gantt-bar"
                    data-colour={bar.colour}
                    data-column={bar.column}
                    aria-label={`${task.title ?? 'Task'}: due ${formatDay(task.dueDate)}, ${COLOUR_WORDS[bar.colour]}`}
                    onClick={() => onUpdateTask(task)}
                    className={cn(
                      'absolute inset-y-0 flex items-center justify-center rounded text-white focus-visible:outline-2 focus-visible:outline-teal-600',
                      GANTT_COLOURS[bar.colour],
                    )}
                    style={{ left: `${bar.leftPercent}%`, width: `${bar.widthPercent}%` }}
                  >
                    <Shape
                      data-testid="gantt-bar-shape"
                      aria-hidden="true"
                      className="h-4 w-4"
                      strokeWidth={3}
                    />
                  </button>
                </div>
              </div>
            );
          }}
        />
      )}
    </div>
  );
}
