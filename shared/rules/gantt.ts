/**
 * The Schedule screen's 7-day Gantt chart (spec 02 sections 2 and 9): columns are the calendar days from
 * the company's today; a bar starts at the task's days until due, clamped to the window, and is always 2
 * of the 7 columns wide.
 */
import { addCalendarDays, daysUntil, todayIn, type CalendarDay, type DateInput } from './dates.ts';
import { isTaskOverdue } from './due-date-text.ts';

/** Days the Gantt chart covers, today first. */
export const GANTT_DAYS = 7;
/** Columns a bar spans, whatever the task. */
export const GANTT_BAR_COLUMNS = 2;

/** The colour keys of the legend: High, Medium, Low/Completed, Overdue. */
export type GanttColour = 'high' | 'medium' | 'low-completed' | 'overdue';

/** The legend, in the spec's order, with each key's label. */
export const GANTT_LEGEND: readonly { colour: GanttColour; label: string }[] = [
  { colour: 'high', label: 'High' },
  { colour: 'medium', label: 'Medium' },
  { colour: 'low-completed', label: 'Low/Completed' },
  { colour: 'overdue', label: 'Overdue' },
];

/** The 7 calendar days of the chart, starting with today in the company's zone. */
export function ganttDays(now: Date, timeZone: string): CalendarDay[] {
  const today = todayIn(now, timeZone);
  return Array.from({ length: GANTT_DAYS }, (_, i) => addCalendarDays(today, i));
}

export interface GanttBar {
  /** The first column (0 = today), the days until due clamped to 0..6. */
  column: number;
  /** Always GANTT_BAR_COLUMNS. */
  span: number;
  /** Left edge and width as percentages of the 7-column track. */
  leftPercent: number;
  widthPercent: number;
  colour: GanttColour;
}

/**
 * A bar's colour: green once completed, red when overdue, else by priority (critical counts as high; a
 * task without a known priority as medium).
 */
export function ganttColour(
  task: { status?: string | null; priority?: string | null; dueDate?: DateInput },
  now: Date,
  timeZone: string,
): GanttColour {
  if (task.status === 'completed') return 'low-completed';
  if (isTaskOverdue({ status: task.status ?? '', dueDate: task.dueDate }, now, timeZone)) return 'overdue';
  if (task.priority === 'high' || task.priority === 'critical') return 'high';
  if (task.priority === 'low') return 'low-completed';
  return 'medium';
}

/** A task's bar, or null when it has no due date (it cannot be placed). */
export function ganttBar(
  task: { status?: string | null; priority?: string | null; dueDate?: DateInput },
  now: Date,
  timeZone: string,
): GanttBar | null {
  const days = daysUntil(task.dueDate, now, timeZone);
  if (days === null) return null;
  const column = Math.min(Math.max(days, 0), GANTT_DAYS - 1);
  return {
    column,
    span: GANTT_BAR_COLUMNS,
    leftPercent: (column / GANTT_DAYS) * 100,
    widthPercent: (GANTT_BAR_COLUMNS / GANTT_DAYS) * 100,
    colour: ganttColour(task, now, timeZone),
  };
}
