import { memo } from 'react';
import { AlertTriangle, CalendarClock, CheckCircle2, ListTodo } from 'lucide-react';
import type { TaskTiles as Tiles } from '#shared/rules/task-groups.ts';

/**
 * The four summary tiles (spec 02 section 2), counted over every task the user can see. Memoised: the
 * counts change with the data, not with each key typed in the search.
 */
export const TaskTiles = memo(function TaskTiles({ tiles }: { tiles: Tiles | undefined }) {
  const items = [
    { label: 'Total Tasks', value: tiles?.total, Icon: ListTodo, tone: 'text-teal-700' },
    { label: 'Overdue', value: tiles?.overdue, Icon: AlertTriangle, tone: 'text-red-700' },
    { label: 'Due This Week', value: tiles?.dueThisWeek, Icon: CalendarClock, tone: 'text-amber-700' },
    { label: 'Completed', value: tiles?.completed, Icon: CheckCircle2, tone: 'text-green-700' },
  ];
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map(({ label, value, Icon, tone }) => (
        <div
          key={label}
          role="group"
          aria-label={label}
          className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:p-4"
        >
          <div className="min-w-0">
            <p className="text-xs font-medium text-slate-600 sm:text-sm">{label}</p>
            <p className="text-2xl font-bold text-slate-900" data-testid="tile-value">
              {value ?? '–'}
            </p>
          </div>
          <Icon className={`h-6 w-6 shrink-0 ${tone}`} aria-hidden="true" />
        </div>
      ))}
    </div>
  );
});
