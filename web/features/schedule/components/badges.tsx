import { Badge } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/cn.ts';
import {
  CATEGORY_LABELS,
  PRIORITY_DOTS,
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

/** A coloured dot with the priority in words for screen readers and on hover. */
export function PriorityDot({ priority, id }: { priority: string | null | undefined; id?: string }) {
  const text = `${label(PRIORITY_LABELS, priority)} priority`;
  return (
    <span
      id={id}
      role="img"
      aria-label={text}
      title={text}
      className={cn(
        'inline-block h-2.5 w-2.5 shrink-0 rounded-full',
        PRIORITY_DOTS[priority ?? ''] ?? 'bg-slate-400',
      )}
    />
  );
}

export function CategoryChip({ category }: { category: string | null | undefined }) {
  return <Badge variant="outline">{label(CATEGORY_LABELS, category)}</Badge>;
}

export function RequestStatusBadge({ status }: { status: string | null | undefined }) {
  const s = REQUEST_STATUS[status ?? 'pending'] ?? REQUEST_STATUS.pending!;
  return <Badge className={s.className}>{s.label}</Badge>;
}
