import { forwardRef, useEffect, useId, useState } from 'react';
import { Filter, RotateCcw, Search } from 'lucide-react';
import { TASK_PRIORITIES, TASK_STATUSES } from '#shared/enums.ts';
import type { TaskFilters } from '#shared/rules/task-filters.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import type { Manager } from '#web/features/projects/utils/assignee-name.ts';
import { cn } from '#web/lib/cn.ts';
import { priorityWord, selectClasses, statusWord } from './task-parts.tsx';

export interface TaskFilterBarProps {
  filters: TaskFilters;
  onChange: (patch: Partial<TaskFilters>) => void;
  onReset: () => void;
  projects: readonly { id: string; name: string }[];
  people: readonly Manager[];
}

// The bar renders again at every key typed in the search: its icons are elements made once, which React
// leaves as they are.
const SEARCH_ICON = (
  <Search
    className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-500"
    aria-hidden="true"
  />
);
const FILTER_ICON = <Filter className="h-4 w-4" aria-hidden="true" />;
const RESET_ICON = <RotateCcw className="h-4 w-4" aria-hidden="true" />;

/** The sticky filter bar (spec 02 section 2) with its Filters panel, whose selects filter (DECISIONS.md). */
export const TaskFilterBar = forwardRef<HTMLInputElement, TaskFilterBarProps>(function TaskFilterBar(
  { filters, onChange, onReset, projects, people },
  searchRef,
) {
  const id = useId();
  const panelFilters = [filters.project, filters.due, filters.assignee].filter((v) => v !== 'all').length;
  const [panelOpen, setPanelOpen] = useState(panelFilters > 0);
  // The box is the source while typing; the URL follows it (and a Reset or bookmark sets it back).
  const [text, setText] = useState(filters.search);
  useEffect(() => setText(filters.search), [filters.search]);
  return (
    <div className="sticky top-16 z-20 -mx-4 grid gap-2 border-b border-slate-200 bg-slate-50/95 px-4 py-3 backdrop-blur md:-mx-6 md:px-6">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-0 flex-1 basis-56">
          {SEARCH_ICON}
          <Input
            ref={searchRef}
            type="search"
            aria-label="Search tasks"
            placeholder="Search tasks..."
            className="pl-9"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              onChange({ search: e.target.value });
            }}
          />
        </div>
        <select
          aria-label="Status"
          className={selectClasses}
          value={filters.status}
          onChange={(e) => onChange({ status: e.target.value })}
        >
          <option value="all">All Statuses</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusWord(s)}
            </option>
          ))}
        </select>
        <select
          aria-label="Priority"
          className={selectClasses}
          value={filters.priority}
          onChange={(e) => onChange({ priority: e.target.value })}
        >
          <option value="all">All Priorities</option>
          {TASK_PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {priorityWord(p)}
            </option>
          ))}
        </select>
        <Button
          variant="outline"
          aria-expanded={panelOpen}
          aria-controls={`${id}-panel`}
          onClick={() => setPanelOpen((o) => !o)}
        >
          {FILTER_ICON}
          Filters
          {panelFilters > 0 && (
            <span
              className="rounded-full bg-teal-700 px-1.5 text-xs text-white"
              aria-label={`${panelFilters} active`}
            >
              {panelFilters}
            </span>
          )}
        </Button>
        <Button variant="ghost" onClick={onReset}>
          {RESET_ICON}
          Reset
        </Button>
        <span className="hidden text-xs text-slate-500 lg:inline">⌘F focuses search</span>
      </div>
      {/* Each select as wide as its column, not its longest option: a project named with a long word made
          the panel, and the page, 500 px wide on a 390 px phone. */}
      <div id={`${id}-panel`} hidden={!panelOpen} className={cn('grid grid-cols-1 gap-2 sm:grid-cols-3')}>
        <label className="grid min-w-0 gap-1 text-sm font-medium text-slate-700">
          Project
          <select
            className={cn(selectClasses, 'w-full min-w-0')}
            value={filters.project}
            onChange={(e) => onChange({ project: e.target.value })}
          >
            <option value="all">All Projects</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grid min-w-0 gap-1 text-sm font-medium text-slate-700">
          Due Date
          <select
            className={cn(selectClasses, 'w-full min-w-0')}
            value={filters.due}
            onChange={(e) => onChange({ due: e.target.value as TaskFilters['due'] })}
          >
            <option value="all">All Dates</option>
            <option value="overdue">Overdue</option>
            <option value="today">Due Today</option>
            <option value="week">Due This Week</option>
            <option value="none">No Due Date</option>
          </select>
        </label>
        <label className="grid min-w-0 gap-1 text-sm font-medium text-slate-700">
          Assignee
          <select
            className={cn(selectClasses, 'w-full min-w-0')}
            value={filters.assignee}
            onChange={(e) => onChange({ assignee: e.target.value })}
          >
            <option value="all">All Assignees</option>
            <option value="me">Assigned to Me</option>
            <option value="unassigned">Unassigned</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
});
