import { z } from 'zod';
import { LOG_STATUSES, LOG_TYPES } from '../enums.ts';
import { Id, RequiredText, visible } from './common.ts';

/** The log form picks at most 5 photos at a time (spec 02 section 9); edits add more, up to this many. */
export const MAX_LOG_IMAGES = 50;

/**
 * A log image is an address this app serves: a photo's file or an uploaded object. Anything else (an
 * external tracker, a `javascript:` URL) is refused so a log can never make a reader's browser call out.
 */
export const LogImageUrl = z
  .string()
  .regex(
    /^\/api\/(photos\/[0-9a-fA-F-]{36}(\/file)?|objects\/image\/[A-Za-z0-9][A-Za-z0-9._-]{0,127})$/,
    'must be the address of an uploaded photo',
  );

const fields = {
  projectId: Id,
  title: RequiredText('Title'),
  content: visible(z.string().trim().max(20_000, 'must be at most 20000 characters'))
    .nullable()
    .transform((v) => v ?? ''),
  type: z.enum(LOG_TYPES),
  status: z.enum(LOG_STATUSES),
  images: z.array(LogImageUrl).max(MAX_LOG_IMAGES, `at most ${MAX_LOG_IMAGES} photos`),
  /** Sent by the spec's clients, ignored: the author is the session user (DECISIONS.md). */
  userId: z.unknown().optional(),
};

/** POST /api/logs (spec 02 section 7): title and project required; type general, status open by default. */
export const LogCreateSchema = z.strictObject({
  id: Id.optional(),
  ...fields,
  content: fields.content.default(''),
  type: fields.type.default('general'),
  status: fields.status.default('open'),
  images: fields.images.default([]),
});

/** PATCH /api/logs/{id}: any subset of the fields, or only the images. */
export const LogPatchSchema = z.strictObject(fields).partial();

export type LogCreate = z.infer<typeof LogCreateSchema>;
export type LogPatch = z.infer<typeof LogPatchSchema>;
