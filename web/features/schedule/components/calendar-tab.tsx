import { useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import {
  WEEKDAY_HEADERS,
  addMonths,
  dayCellTasks,
  monthGrid,
  monthLabel,
  type CalendarMonth,
} from '#shared/rules/calendar-month.ts';
import { dueDay } from '#shared/rules/dates.ts';
import type { ProjectRow, SyncDb, TaskRow } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { useTasksDueBetween } from '../hooks/use-schedule-data.ts';
import { formatLongDay } from '../utils/format.ts';
import { PriorityMark } from './badges.tsx';

export interface CalendarTabProps {
  db: SyncDb;
  now: Date;
  timeZone: string;
  month: CalendarMonth;
  onMonthChange: (month: CalendarMonth) => void;
  projects: Map<string, ProjectRow>;
  onUpdateTask: (task: TaskRow) => void;
}

function groupByDay<T extends { dueDate?: string | null }>(rows: Iterable<T>): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const day = dueDay(row.dueDate);
    if (day) map.set(day, [...(map.get(day) ?? []), row]);
  }
  return map;
}

/** The month grid (spec 02 section 2): Sun-Sat, projects due, 3 tasks a day then '+N more', today marked. */
export function CalendarTab({
  db,
  now,
  timeZone,
  month,
  onMonthChange,
  projects,
  onUpdateTask,
}: CalendarTabProps) {
  const weeks = monthGrid(month, now, timeZone);
  const first = weeks[0]![0]!.day;
  const last = weeks[weeks.length - 1]![6]!.day;
  const tasks = useTasksDueBetween(db, first, last);
  const tasksByDay = groupByDay(tasks ?? []);
  const projectsByDay = groupByDay(projects.values());
  const [expanded, setExpanded] = useState<string | null>(null);
  // Phones: a cell is too narrow for tappable titles, so a day is picked and its tasks listed below.
  const [picked, setPicked] = useState<string | null>(null);
  const pickedDay = picked ?? weeks.flat().find((c) => c.isToday)?.day ?? null;
  const pickedTasks = pickedDay ? (tasksByDay.get(pickedDay) ?? []) : [];
  const pickedProjects = pickedDay ? (projectsByDay.get(pickedDay) ?? []) : [];

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <Button variant="outline" size="sm" onClick={() => onMonthChange(addMonths(month, -1))}>
          <ChevronLeft className="h-4 w-4" aria-hidden="true" />
          Previous
        </Button>
        <h2 className="text-lg font-semibold text-slate-900" aria-live="polite">
          {monthLabel(month)}
        </h2>
        <Button variant="outline" size="sm" onClick={() => onMonthChange(addMonths(month, 1))}>
          Next
          <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </Button>
      </div>
      <table className="w-full table-fixed border-collapse text-xs" aria-label={monthLabel(month)}>
        <thead>
          <tr>
            {WEEKDAY_HEADERS.map((d) => (
              <th key={d} scope="col" className="py-1 text-center font-medium text-slate-600">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]!.day}>
              {week.map((cell) => {
                const dayTasks = tasksByDay.get(cell.day) ?? [];
                const { shown, more } = dayCellTasks(dayTasks);
                const list = expanded === cell.day ? dayTasks : shown;
                const dueProjects = projectsByDay.get(cell.day) ?? [];
                return (
                  <td
                    key={cell.day}
                    aria-label={formatLongDay(cell.day)}
                    aria-current={cell.isToday ? 'date' : undefined}
                    data-today={cell.isToday || undefined}
                    className={cn(
                      'h-24 border border-slate-200 p-0.5 align-top sm:p-1',
                      !cell.inMonth && 'bg-slate-50 text-slate-500',
                      cell.isToday && 'bg-teal-50 ring-2 ring-teal-600 ring-inset',
                    )}
                  >
                    <button
                      type="button"
                      className={cn(
                        'flex min-h-11 w-full flex-col items-end rounded sm:hidden',
                        pickedDay === cell.day && 'bg-teal-100',
                        cell.isToday && 'font-bold text-teal-800',
                      )}
                      aria-pressed={pickedDay === cell.day}
                      onClick={() => setPicked(cell.day)}
                    >
                      {/* Named by what it shows, the day and the count ('30 Monday, November 30, 2026: 2 due'),
                          so a voice user can say what they see (WCAG 2.5.3). */}
                      {cell.date} <span className="sr-only">{formatLongDay(cell.day)}:</span>{' '}
                      {dayTasks.length + dueProjects.length > 0 ? (
                        <>
                          <span className="mt-1 rounded-full bg-teal-700 px-1 text-[10px] text-white">
                            {dayTasks.length + dueProjects.length}
                          </span>{' '}
                          <span className="sr-only">due</span>
                        </>
                      ) : (
                        <span className="sr-only">nothing due</span>
                      )}
                    </button>
                    <div
                      className={cn(
                        'mb-0.5 hidden text-right sm:block',
                        cell.isToday && 'font-bold text-teal-800',
                      )}
                    >
                      {cell.date}
                    </div>
                    <ul className="hidden flex-col gap-0.5 sm:flex">
                      {dueProjects.map((p) => (
                        <li
                          key={p.id}
                          className="truncate rounded bg-violet-100 px-1 text-violet-900"
                          title={`Project due: ${p.name ?? ''}`}
                        >
                          {p.name}
                        </li>
                      ))}
                      {list.map((task) => (
                        <li key={task.id}>
                          <button
                            type="button"
                            onClick={() => onUpdateTask(task)}
                            title={task.title ?? undefined}
                            aria-label={`${task.title ?? 'Task'}, ${task.priority ?? 'no'} priority`}
                            className="flex w-full min-w-0 items-center gap-1 rounded px-0.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600"
                          >
                            <PriorityMark priority={task.priority} word={false} />
                            <span className="truncate">{task.title}</span>
                          </button>
                        </li>
                      ))}
                    </ul>
                    {more > 0 && (
                      <button
                        type="button"
                        className="mt-0.5 hidden text-teal-700 sm:inline underline-offset-2 hover:underline"
                        aria-expanded={expanded === cell.day}
                        onClick={() => setExpanded(expanded === cell.day ? null : cell.day)}
                      >
                        {expanded === cell.day ? 'Show less' : `+${more} more`}
                      </button>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {pickedDay && (
        <section
          aria-label={`Tasks on ${formatLongDay(pickedDay)}`}
          className="flex flex-col gap-2 sm:hidden"
        >
          <h3 className="text-sm font-semibold text-slate-900">{formatLongDay(pickedDay)}</h3>
          {pickedProjects.map((p) => (
            <p key={p.id} className="rounded bg-violet-100 px-2 py-1 text-sm text-violet-900">
              Project due: {p.name}
            </p>
          ))}
          {pickedTasks.length === 0 && pickedProjects.length === 0 ? (
            <p className="text-sm text-slate-600">Nothing due this day</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {pickedTasks.map((task) => (
                <li key={task.id}>
                  <button
                    type="button"
                    onClick={() => onUpdateTask(task)}
                    className="flex min-h-11 w-full items-center gap-2 rounded-md border border-slate-200 px-3 text-left text-sm"
                  >
                    <span className="min-w-0 flex-1 truncate">{task.title}</span>{' '}
                    <PriorityMark priority={task.priority} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
