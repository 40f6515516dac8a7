import { ChevronDown, ChevronUp, ChevronsUp, Equal, type LucideIcon } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/cn.ts';
import {
  CATEGORY_LABELS,
  PRIORITY_MARKS,
  PRIORITY_LABELS,
  REQUEST_STATUS,
  STATUS_LABELS,
  STATUS_VARIANTS,
  label,
} from '../utils/labels.ts';

export function StatusBadge({ status, id }: { status: string | null | undefined; id?: string }) {
  return (
    <Badge id={id} variant={STATUS_VARIANTS[status ?? ''] ?? 'secondary'}>
      {label(STATUS_LABELS, status)}
    </Badge>
  );
}

/** Each priority's shape, so that it is told apart without its colour: up for the urgent, down for low. */
const PRIORITY_ICONS: Record<string, LucideIcon> = {
  critical: ChevronsUp,
  high: ChevronUp,
  medium: Equal,
  low: ChevronDown,
};

/**
 * A task's priority as a shape in its colour and, with `word`, its name beside it ('High'): a colour-blind
 * user reads the word or the shape, a screen reader hears 'High priority'. Without `word` (a calendar cell)
 * the name is read by screen readers and shown on hover.
 */
export function PriorityMark({
  priority,
  word = true,
}: {
  priority: string | null | undefined;
  word?: boolean;
}) {
  const name = label(PRIORITY_LABELS, priority);
  const Icon = PRIORITY_ICONS[priority ?? ''] ?? Equal;
  return (
    <span
      data-testid="priority-mark"
      title={`${name} priority`}
      className="inline-flex shrink-0 items-center gap-0.5 text-slate-700"
    >
      <Icon
        aria-hidden="true"
        strokeWidth={3}
        className={cn('h-3.5 w-3.5 shrink-0', PRIORITY_MARKS[priority ?? ''] ?? 'text-slate-500')}
      />
      {word ? (
        <span>
          {name} <span className="sr-only">priority</span>
        </span>
      ) : (
        <span className="sr-only">{name} priority</span>
      )}
    </span>
  );
}

export function CategoryChip({ category }: { category: string | null | undefined }) {
  return <Badge variant="outline">{label(CATEGORY_LABELS, category)}</Badge>;
}

export function RequestStatusBadge({ status }: { status: string | null | undefined }) {
  const s = REQUEST_STATUS[status ?? 'pending'] ?? REQUEST_STATUS.pending!;
  return <Badge className={s.className}>{s.label}</Badge>;
}
