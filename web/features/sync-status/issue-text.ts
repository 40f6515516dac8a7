import { format } from 'date-fns';
import type { SyncIssue } from '#sync/db.ts';
import { nameOfRecord } from '#sync/issues.ts';
import { LOG_STATUS_LABELS, LOG_TYPE_LABELS } from '#web/features/logs/utils/labels.ts';
import { PROJECT_STATUS_LABELS } from '#web/features/projects/utils/labels.ts';
import {
  CATEGORY_LABELS,
  TASK_PRIORITY_LABELS,
  TASK_STATUS_LABELS,
} from '#web/features/projects/utils/task-form.ts';

/** The words the screens show for a table's stored values ('in-progress' is "In Progress"). */
const VALUE_LABELS: Record<string, Record<string, Record<string, string>>> = {
  tasks: { status: TASK_STATUS_LABELS, priority: TASK_PRIORITY_LABELS, category: CATEGORY_LABELS },
  projects: { status: PROJECT_STATUS_LABELS },
  project_logs: { status: LOG_STATUS_LABELS, type: LOG_TYPE_LABELS },
};

/** What a record is called in a sentence, by its table's wire name. */
const THING: Record<string, string> = {
  projects: 'project',
  tasks: 'task',
  project_logs: 'project log',
  photos: 'photo',
  schedule_changes: 'schedule change',
  communications: 'communication',
  change_orders: 'change order',
};

/** Field names in words; anything else is split from camelCase ("clientEmail" -> "client email"). */
const FIELD_WORDS: Record<string, string> = {
  dueDate: 'due date',
  startDate: 'start date',
  endDate: 'end date',
  assigneeId: 'assignee',
  projectId: 'project',
  taskId: 'task',
  isMilestone: 'milestone',
  estimatedHours: 'estimated hours',
  actualCost: 'actual cost',
  newDate: 'new date',
  originalDate: 'original date',
};

/** A field of a record in words, lower case: "due date", "assignee". */
export function fieldInWords(field: string): string {
  return (
    FIELD_WORDS[field] ??
    field
      .replace(/Id$/, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase()
  );
}

/** "due date", "name and due date", "name, status and due date". */
export function fieldsInWords(fields: readonly string[]): string {
  const words = fields.map(fieldInWords);
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A value as a person reads it: dates as dates, money in dollars, ids as the name of what they point at
 * (when the device knows it), a status or a priority as the screens label it, empty as "(empty)".
 */
export function valueInWords(
  field: string,
  value: unknown,
  nameOf?: (id: string) => string | undefined,
  table?: string,
): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  const labels = table ? VALUE_LABELS[table]?.[field] : undefined;
  if (typeof value === 'string' && labels?.[value]) return labels[value];
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (field === 'budget' || field === 'actualCost' || field.endsWith('Cents')) {
    if (typeof value === 'number')
      return `$${(value / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  }
  if (typeof value === 'string') {
    if (field.endsWith('Id')) return nameOf?.(value) ?? 'a record no longer on this device';
    if (ISO_DATE.test(value)) {
      const d = new Date(value);
      if (!Number.isNaN(d.getTime()))
        return format(d, value.length > 10 ? 'MMM d, yyyy h:mm a' : 'MMM d, yyyy');
    }
    return value;
  }
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

export interface IssueText {
  /** A heading naming the record: 'Task "Pour slab": your due date was not applied'. */
  title: string;
  /** A short state in words instead of the server's code: "Partly saved", "Not saved", "Upload refused". */
  badge: string;
  /** One or two sentences: what happened and what the user can do. */
  explanation: string;
}

/**
 * The record's name as the user knows it: the device's copy first, else its name when the server's answer
 * arrived (the record may be gone since), else the change's own data.
 */
export function recordName(issue: SyncIssue, mirrorName?: string | null): string | null {
  if (mirrorName?.trim()) return mirrorName.trim().slice(0, 80);
  // Stored through nameOfRecord as the refusal arrived: already trimmed and cut.
  if (issue.recordName) return issue.recordName;
  const m = issue.mutation;
  // Only the field that names a record of this table: a project's description is not its name.
  return m ? nameOfRecord(m.table, m.data) : null;
}

/** Why the server refused a change, as a sentence, by its code (DESIGN.md section 5 error codes). */
function refusalReason(code: string, thing: string, message: string, op?: string): string {
  switch (code) {
    case 'VALIDATION_FAILED':
      return `The server could not accept a value in it (${message}). Fix the value and send it again, or discard the change.`;
    case 'FORBIDDEN':
      return `Your role is not allowed to make this change, so it was not saved. Discard it, or ask a manager to make it.`;
    case 'NOT_FOUND':
      // A create names nothing on the server but what it belongs to (its project, its task).
      if (op === 'create')
        return `What this ${thing} belongs to is no longer on the server (it was deleted, or you can no longer see it), so it could not be created.`;
      return `This ${thing} is no longer on the server (it was deleted, or you can no longer see it), so your change could not be saved.`;
    case 'ROW_DELETED':
      return `Someone deleted this ${thing} before your change reached the server, so your change could not be saved.`;
    case 'PARENT_DELETED':
      return `What this ${thing} belongs to was deleted before your change reached the server, so it could not be saved.`;
    case 'CONFLICT':
      return `It clashes with a change someone else made first (${message}). Check the ${thing}, then send your change again or discard it.`;
    default:
      return `The server did not accept this change (${message}). Send it again or discard it.`;
  }
}

/**
 * The words of a Sync issues entry (issue 9 item 5): which record, which fields, what happened, in
 * sentences instead of "Edited project" and PARTIALLY_APPLIED.
 */
export function describeIssue(issue: SyncIssue, mirrorName?: string | null): IssueText {
  if (issue.kind === 'blob') {
    return {
      title: 'A photo was not uploaded',
      badge: 'Upload refused',
      explanation: `The server would not store this photo's file (${issue.message}). Retry the upload or discard it.`,
    };
  }
  const m = issue.mutation;
  if (!m) {
    return {
      title: 'A change was not saved',
      badge: 'Not saved',
      explanation: refusalReason(issue.code, 'record', issue.message),
    };
  }
  const thing = THING[m.table] ?? 'record';
  const name = recordName(issue, mirrorName);
  const record = name ? `${capitalise(thing)} "${name}"` : `A ${thing}`;
  const fields = Object.keys(m.data ?? {});

  if (issue.kind === 'conflict') {
    const lost = (issue.conflicts ?? []).map((c) => c.field);
    const what = lost.length ? fieldsInWords(lost) : 'some fields';
    const plural = lost.length > 1;
    return {
      title: `${record}: your ${what} ${plural ? 'were' : 'was'} not applied`,
      badge: 'Partly saved',
      explanation:
        `Someone else changed the ${what} of this ${thing} after you made your change, so their ` +
        `${plural ? 'values were' : 'value was'} kept. The rest of your change was saved; send yours again to replace theirs.`,
    };
  }
  if (issue.code === 'ALREADY_DECIDED') return alreadyDecidedText(record, m.data ?? {}, issue.message);
  if (issue.code === 'REQUEST_CHANGED') {
    // sync/SPEC.md W19: sending the same decision again would be refused again; the request must be read.
    const decision = m.data?.status === 'rejected' ? 'rejection' : 'approval';
    return {
      title: `${record}: your ${decision} was not applied`,
      badge: 'Request changed',
      explanation: `${issue.message} Open Schedule, read the request as it is now and decide again, then discard this entry.`,
    };
  }
  const title =
    m.op === 'create'
      ? `${record} was not created`
      : m.op === 'delete'
        ? `${record} was not deleted`
        : `${record}: your change to ${fields.length ? fieldsInWords(fields) : 'it'} was not saved`;
  return { title, badge: 'Not saved', explanation: refusalReason(issue.code, thing, issue.message, m.op) };
}

/**
 * A schedule-change decision or edit that reached the server after someone else had decided the request
 * (sync/SPEC.md W13): the server's message names who decided, which is what the user needs to know.
 */
function alreadyDecidedText(record: string, data: Record<string, unknown>, message: string): IssueText {
  const decision = data.status === 'approved' ? 'approval' : data.status === 'rejected' ? 'rejection' : null;
  const decided = message.replace(/^This (schedule change|change order) /, '');
  return {
    title: `${record} ${decided}`,
    badge: 'Already decided',
    explanation: decision
      ? `Your ${decision} was not applied: ${message.replace(/^This/, 'this')}. Its result stays as they decided; discard this entry once you have read it.`
      : `Your edit was not applied: ${message.replace(/^This/, 'this')}, and a decided request can no longer change. Raise a new request if the date must still move.`,
  };
}

/** The toast for newly refused or partly applied changes, shown once (issue 9 item 5). */
export function issueToast(newIssues: readonly SyncIssue[], nameOf: (issue: SyncIssue) => string | null) {
  if (newIssues.length === 1) {
    const text = describeIssue(newIssues[0]!, nameOf(newIssues[0]!));
    return { title: text.title, description: `${text.explanation} Open Sync issues to see it.` };
  }
  return {
    title: `${newIssues.length} changes were not fully saved`,
    description: 'The server refused them or kept someone else’s values. Open Sync issues to see them.',
  };
}
