import type { BadgeVariant } from '#web/components/ui/badge.tsx';
import type { LogStatus, LogType } from './log-form.ts';

export const LOG_TYPE_LABELS: Record<LogType, string> = {
  general: 'General',
  issue: 'Issue',
  milestone: 'Milestone',
  safety: 'Safety',
};

export const LOG_STATUS_LABELS: Record<LogStatus, string> = {
  open: 'Open',
  'in-progress': 'In Progress',
  resolved: 'Resolved',
  closed: 'Closed',
};

export const LOG_TYPE_BADGES: Record<LogType, BadgeVariant> = {
  general: 'secondary',
  issue: 'destructive',
  milestone: 'info',
  safety: 'warning',
};

export const LOG_STATUS_BADGES: Record<LogStatus, BadgeVariant> = {
  open: 'info',
  'in-progress': 'warning',
  resolved: 'success',
  closed: 'secondary',
};

/** A label for a stored value, the value itself when it is not one the app knows. */
export function labelOf<K extends string>(
  labels: Record<K, string>,
  value: string | null | undefined,
): string {
  if (!value) return '';
  return (labels as Record<string, string>)[value] ?? value;
}
