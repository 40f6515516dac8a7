import type { BadgeVariant } from '#web/components/ui/badge.tsx';

/** Task statuses as the spec shows them (spec 02 section 4: in-progress is shown 'In Progress'). */
export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
  blocked: 'Blocked',
};

export const STATUS_VARIANTS: Record<string, BadgeVariant> = {
  pending: 'secondary',
  'in-progress': 'info',
  completed: 'success',
  blocked: 'destructive',
};

export const CATEGORY_LABELS: Record<string, string> = {
  project: 'Project',
  administrative: 'Administrative',
  general: 'General',
  subcontractor: 'Subcontractor',
};

export const PRIORITY_LABELS: Record<string, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/**
 * The priority mark's colour class: the dots' hues (red, orange, amber, green), a shade darker where the
 * lighter one was under 3:1 against white, the least a graphic that carries meaning needs (WCAG 1.4.11).
 */
export const PRIORITY_MARKS: Record<string, string> = {
  critical: 'text-red-600',
  high: 'text-orange-600',
  medium: 'text-amber-600',
  low: 'text-green-700',
};

/** Schedule-change statuses: approved green, rejected red, pending coral (spec 02 section 4). */
export const REQUEST_STATUS: Record<string, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-orange-100 text-orange-800' },
  approved: { label: 'Approved', className: 'bg-green-100 text-green-800' },
  rejected: { label: 'Rejected', className: 'bg-red-100 text-red-800' },
};

export const label = (labels: Record<string, string>, value: string | null | undefined) =>
  value ? (labels[value] ?? value) : 'Unknown';
