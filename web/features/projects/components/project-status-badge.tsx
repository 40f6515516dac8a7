import { Badge } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/cn.ts';
import { projectStatusClass, projectStatusLabel } from '../utils/labels.ts';

/** Spec 01 section 4: active teal, completed green, delayed red, on-hold grey. */
export function ProjectStatusBadge({ status }: { status: string | null | undefined }) {
  return (
    <Badge variant="outline" className={cn('border', projectStatusClass(status))}>
      {projectStatusLabel(status)}
    </Badge>
  );
}
