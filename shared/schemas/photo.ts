import { z } from 'zod';
import { Id, OptionalText, visible } from './common.ts';

/** A photo's file as the API serves it and a log stores it (`LogImageUrl` in shared/schemas/log.ts). */
export function photoFileUrl(photoId: string): string {
  return `/api/photos/${photoId}/file`;
}

/** A key in the blob store: what `photos.filename` holds and the last segment of an upload URL. */
export const StorageKey = z
  .string({ message: 'Filename is required' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be an uploaded object key')
  .refine((k) => !k.includes('..') && !k.endsWith('.meta'), 'must be an uploaded object key');

/** Spec 02 section 5: tags are trimmed and empty items dropped; duplicates collapse to one. */
export const PhotoTags = z
  .array(visible(z.string().trim().max(50, 'must be at most 50 characters')))
  .max(30, 'at most 30 tags')
  .transform((tags) => [...new Set(tags.filter(Boolean))]);

/**
 * POST /api/photos (spec 02 section 7). `filename` is the object key of a finished upload (JSON flow) or
 * the key the server chose for the multipart file. `userId` is accepted because the spec's clients send
 * one, and ignored: the photo belongs to the session user (DECISIONS.md).
 */
export const PhotoCreateSchema = z.strictObject({
  id: Id.optional(),
  projectId: Id,
  filename: StorageKey,
  originalName: OptionalText(255),
  description: OptionalText(2000),
  tags: PhotoTags.default([]),
  /** When the photo was taken (its EXIF, read on the device before the bytes were re-encoded without it). */
  capturedAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date and time' })
    .nullable()
    .optional(),
  userId: z.unknown().optional(),
});

export type PhotoCreate = z.infer<typeof PhotoCreateSchema>;
