import { ClipboardList, Plus } from 'lucide-react';
import { emptyStateText, type TaskFilters } from '#shared/rules/task-filters.ts';
import { Button } from '#web/components/ui/button.tsx';

/** 'No tasks found' (spec 02 section 2), worded after the active filters, with its two buttons. */
export function TaskEmptyState({
  filters,
  onClear,
  onCreate,
}: {
  filters: TaskFilters;
  onClear: () => void;
  onCreate?: () => void;
}) {
  const text = emptyStateText(filters);
  return (
    <div className="grid justify-items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
      <ClipboardList className="h-10 w-10 text-slate-400" aria-hidden="true" />
      <h2 className="text-lg font-semibold text-slate-900">{text.title}</h2>
      <p className="max-w-md text-sm text-slate-600">{text.description}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button variant="outline" onClick={onClear}>
          Clear All Filters
        </Button>
        {onCreate && (
          <Button onClick={onCreate}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Create Task
          </Button>
        )}
      </div>
    </div>
  );
}
