import type { ProjectStatus } from './project-form.ts';

export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  active: 'Active',
  completed: 'Completed',
  delayed: 'Delayed',
  'on-hold': 'On Hold',
};

/** Spec 01 section 4: active teal, completed green, delayed red, on-hold grey. */
export const PROJECT_STATUS_CLASSES: Record<ProjectStatus, string> = {
  active: 'bg-teal-100 text-teal-800 border-teal-200',
  completed: 'bg-green-100 text-green-800 border-green-200',
  delayed: 'bg-red-100 text-red-800 border-red-200',
  'on-hold': 'bg-gray-100 text-gray-700 border-gray-200',
};

export function projectStatusLabel(status: string | null | undefined): string {
  return (
    (status && status in PROJECT_STATUS_LABELS && PROJECT_STATUS_LABELS[status as ProjectStatus]) || 'Active'
  );
}

export function projectStatusClass(status: string | null | undefined): string {
  return (
    (status && status in PROJECT_STATUS_CLASSES && PROJECT_STATUS_CLASSES[status as ProjectStatus]) ||
    PROJECT_STATUS_CLASSES.active
  );
}

/** Spec 01 section 4: high and critical show red, the others blue. */
export function priorityClass(priority: string | null | undefined): string {
  return priority === 'high' || priority === 'critical'
    ? 'bg-red-100 text-red-800 border-red-200'
    : 'bg-blue-100 text-blue-800 border-blue-200';
}

export const TASK_STATUS_CLASSES: Record<string, string> = {
  pending: 'bg-gray-100 text-gray-700 border-gray-200',
  'in-progress': 'bg-amber-100 text-amber-800 border-amber-200',
  completed: 'bg-green-100 text-green-800 border-green-200',
  blocked: 'bg-red-100 text-red-800 border-red-200',
};
