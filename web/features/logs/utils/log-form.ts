import { LOG_STATUSES, LOG_TYPES, MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { LogCreateSchema } from '#shared/schemas/log.ts';
import type { ProjectLogRow } from '#sync/db.ts';
import { fieldErrors } from '#web/lib/field-errors.ts';
import { formSchema, type Validated } from '#web/lib/form-patch.ts';

export type LogType = (typeof LOG_TYPES)[number];
export type LogStatus = (typeof LOG_STATUSES)[number];

/** Spec 02 section 9: a log's photo picker takes at most 5 files per save. */
export const LOG_PHOTOS_PER_SAVE = 5;

export interface LogFormValues {
  projectId: string;
  title: string;
  content: string;
  type: LogType;
  status: LogStatus;
  /** The photo addresses the log keeps (`/api/photos/{id}/file`); new photos are added at save. */
  images: string[];
}
export type LogField = keyof LogFormValues;

/** What a valid log form writes: the fields of POST/PATCH /api/logs (spec 02 section 7). */
export interface LogFields {
  projectId: string;
  title: string;
  content: string;
  type: LogType;
  status: LogStatus;
  images: string[];
}

/** The form's field labels: its error messages and the record's History name fields by them. */
export const LOG_FIELD_LABELS: Record<LogField, string> = {
  projectId: 'Project',
  title: 'Title',
  content: 'Content',
  type: 'Type',
  status: 'Status',
  images: 'Photos',
};

/** Spec 02 section 5: a new log has no project yet, type general, status open. */
export function newLogForm(): LogFormValues {
  return { projectId: '', title: '', content: '', type: 'general', status: 'open', images: [] };
}

export function logToForm(log: ProjectLogRow): LogFormValues {
  return {
    projectId: log.projectId ?? '',
    title: log.title ?? '',
    content: log.content ?? '',
    type: LOG_TYPES.find((t) => t === log.type) ?? 'general',
    status: LOG_STATUSES.find((s) => s === log.status) ?? 'open',
    images: [...(log.images ?? [])],
  };
}

/** Validates the log form with the shared `LogCreateSchema` (the server's rule), worded for the form. */
export function validateLogForm(values: LogFormValues): Validated<LogFields, LogField> {
  const parsed = LogCreateSchema.safeParse(values);
  if (parsed.success) {
    const { projectId, title, content, type, status, images } = parsed.data;
    return { ok: true, data: { projectId, title, content, type, status, images } };
  }
  const errors = fieldErrors(parsed.error, LOG_FIELD_LABELS);
  if (!values.projectId) errors.projectId = 'Project is required';
  return { ok: false, errors };
}

export const logFormSchema = formSchema(validateLogForm);

/**
 * Spec 02 section 5: a tag is trimmed, an empty one or a duplicate (ignoring case) is not added. Returns
 * the tags unchanged when `input` adds nothing.
 */
export function addTag(tags: readonly string[], input: string): string[] {
  const tag = input.trim();
  if (!tag || tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return [...tags];
  return [...tags, tag];
}

export interface PickedPhotos {
  /** The files kept for this save, in the order picked. */
  files: File[];
  /** Why some picked files were not kept, one line each. */
  problems: string[];
}

/**
 * Adds picked files to those already chosen for this save: images only, at most 10 MB each, at most
 * `LOG_PHOTOS_PER_SAVE` in all (spec 02 sections 5 and 9). Each refusal is named, never silent.
 */
export function pickLogPhotos(chosen: readonly File[], picked: readonly File[]): PickedPhotos {
  const files = [...chosen];
  const problems: string[] = [];
  let over = 0;
  for (const file of picked) {
    if (!file.type.startsWith('image/')) problems.push(`${file.name} is not an image`);
    else if (file.size > MAX_PHOTO_BYTES) problems.push(`${file.name} is larger than 10 MB`);
    else if (files.length >= LOG_PHOTOS_PER_SAVE) over += 1;
    else files.push(file);
  }
  if (over > 0) {
    problems.push(
      `Up to ${LOG_PHOTOS_PER_SAVE} photos per save: ${over === 1 ? '1 photo was' : `${over} photos were`} not added`,
    );
  }
  return { files, problems };
}
