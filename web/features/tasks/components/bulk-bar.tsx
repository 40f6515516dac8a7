import { Trash2, X } from 'lucide-react';
import { TASK_STATUSES } from '#shared/enums.ts';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import type { Manager } from '#web/features/projects/utils/assignee-name.ts';
import { selectClasses, statusWord } from './task-parts.tsx';

export interface BulkBarProps {
  count: number;
  shown: number;
  people: readonly Manager[];
  canUpdate: boolean;
  canDelete: boolean;
  onSelectAll: () => void;
  onStatus: (status: string) => void;
  /** null: Unassign; 'me': Assign to Me; else a user id. */
  onAssign: (assignee: string | null) => void;
  onDelete: () => void;
  onCancel: () => void;
}

/** The bulk edit bar (spec 02 section 2), wired (DECISIONS.md): each action applies to every selected task. */
export function BulkBar({
  count,
  shown,
  people,
  canUpdate,
  canDelete,
  onSelectAll,
  onStatus,
  onAssign,
  onDelete,
  onCancel,
}: BulkBarProps) {
  const none = count === 0;
  return (
    <div
      role="region"
      aria-label="Bulk edit"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-teal-200 bg-teal-50 p-3"
    >
      <p className="text-sm font-semibold text-teal-900" aria-live="polite">
        {count} task(s) selected
      </p>
      <Button variant="outline" size="sm" onClick={onSelectAll} disabled={shown === 0}>
        Select all ({shown})
      </Button>
      {canUpdate && (
        <>
          <select
            aria-label="Change Status"
            className={selectClasses}
            value=""
            disabled={none}
            onChange={(e) => e.target.value && onStatus(e.target.value)}
          >
            <option value="" disabled>
              Change Status
            </option>
            {TASK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s)}
              </option>
            ))}
          </select>
          <select
            aria-label="Assign To"
            // A long name among the people shrinks the select to the bar instead of widening the page.
            className={cn(selectClasses, 'max-w-full min-w-0')}
            value=""
            disabled={none}
            onChange={(e) => {
              const v = e.target.value;
              if (v) onAssign(v === 'unassign' ? null : v);
            }}
          >
            <option value="" disabled>
              Assign To
            </option>
            <option value="unassign">Unassign</option>
            <option value="me">Assign to Me</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </>
      )}
      {canDelete && (
        <Button variant="destructive" size="sm" disabled={none} onClick={onDelete}>
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          Delete
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={onCancel}>
        <X className="h-4 w-4" aria-hidden="true" />
        Cancel
      </Button>
    </div>
  );
}
