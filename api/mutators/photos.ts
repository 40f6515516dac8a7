import { type SQL, and, desc, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { PhotoCreateSchema } from '#shared/schemas/photo.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { isScopedToAssignments, scopeParams, visibleWhere } from '../db/scope.ts';
import { conflict, notFound } from '../http.ts';
import {
  idTaken,
  findVisibleProject,
  lookupVisible,
  nextVersion,
  nowIso,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  tombstone,
  validate,
  type MutationContext,
  type Visibility,
} from './core.ts';
import { detachPhotoFromLogs } from './logs.ts';
import { allRows, statements } from './statements.ts';

const { photos } = schema;

export type PhotoRow = typeof photos.$inferSelect;

/**
 * What is known about a photo's bytes. REST uploads store the bytes first ('present'); the sync photo lane
 * creates the row first ('pending') and sends the bytes on their own (DESIGN.md section 7).
 */
export interface PhotoBlob {
  mimeType: string | null;
  sizeBytes: number | null;
  sha256: string | null;
  blobStatus: 'present' | 'pending';
}

/** Photos the user may see (`api/db/scope.ts`), newest first, optionally of one project. */
/** Newest first; the id breaks ties (the order REST pages by). */
export const PHOTOS_ORDER = [
  { column: photos.createdAt, desc: true },
  { column: photos.id, desc: true },
] as const;

export function* listVisiblePhotos(
  c: Conn,
  user: SessionUser,
  projectId?: string,
  page: { after?: SQL; limit?: number } = {},
) {
  return yield* io(
    c.db
      .select()
      .from(photos)
      .where(
        and(
          visibleWhere('photos', user),
          projectId === undefined ? undefined : eq(photos.projectId, projectId),
          page.after,
        ),
      )
      .orderBy(desc(photos.createdAt), desc(photos.id))
      .limit(page.limit ?? -1)
      .all(),
  );
}

/** A live photo the user may see, or 404 (also for another company's id). */
export function* findVisiblePhoto(c: Visibility, user: SessionUser, id: string): Op<PhotoRow> {
  const row = yield* lookupVisible(c, statements.photo, user, id);
  if (!row) throw notFound('Photo');
  return row;
}

export function* createPhoto(ctx: MutationContext, input: unknown, blob: PhotoBlob) {
  requirePermission(ctx, 'photos:create');
  const { userId: _ignored, ...data } = validate(PhotoCreateSchema, input);
  yield* findVisibleProject(ctx, ctx.user, data.projectId);
  const id = data.id ?? newId();
  if (yield* idTaken(ctx, 'photos', id)) {
    throw conflict('A photo with this id already exists');
  }
  const version = yield* nextVersion(ctx);
  const values = { ...data, ...blob, userId: ctx.user.id };
  const row = yield* statements.rows.photos.insert(ctx.sql, {
    ...values,
    id,
    companyId: ctx.user.companyId,
    createdAt: occurredIso(ctx),
    ...stampFields(ctx, version, Object.keys(values)),
  });
  yield* recordActivity(ctx, {
    actionType: 'photo_uploaded',
    description: `Uploaded photo ${row.originalName ?? row.description ?? row.filename}`,
    entityType: 'photo',
    entityId: id,
    metadata: { projectId: row.projectId },
  });
  return row;
}

/**
 * The sync photo lane's bytes arrived (sync/SPEC.md B7): every live photo the caller may see waiting for
 * them becomes present, each as a versioned write of its own so every device pulls it. Returns how many.
 */
export function* markBlobPresent(
  ctx: MutationContext,
  sha256: string,
  blob: { mimeType: string; sizeBytes: number },
): Op<number> {
  requirePermission(ctx, 'photos:create');
  const s = statements;
  const variant = isScopedToAssignments(ctx.user) ? 'assigned' : 'company';
  const waiting = yield* allRows(ctx.sql, s.pendingPhotosOfBlob[variant], {
    sha: sha256,
    ...scopeParams(ctx.user),
  });
  for (const photo of waiting) {
    const version = yield* nextVersion(ctx);
    yield* s.rows.photos.update(ctx.sql, photo.id, ctx.user.companyId, {
      blobStatus: 'present',
      filename: sha256,
      mimeType: blob.mimeType,
      sizeBytes: blob.sizeBytes,
      ...stampFields(ctx, version, ['blobStatus', 'filename', 'mimeType', 'sizeBytes'], photo.fieldMeta),
    });
  }
  return waiting.length;
}

function* visiblePhotoOfBlob(c: Visibility, user: SessionUser, sha256: string) {
  const variant = isScopedToAssignments(user) ? 'assigned' : 'company';
  return yield* io(c.sql.get(statements.photoOfBlob[variant], { sha: sha256, ...scopeParams(user) }));
}

/** Whether a live photo the user may see names these bytes (PUT /api/sync/blobs answers 404 otherwise). */
export function* photoOfBlobVisible(c: Visibility, user: SessionUser, sha256: string): Op<boolean> {
  return (yield* visiblePhotoOfBlob(c, user, sha256)) !== undefined;
}

/**
 * The stored bytes a new photo row may reuse without uploading them again: those of a present photo the
 * user can see. Bytes only other rows hold (another project, a deleted photo) are not reused: the new row
 * waits for the device to send them, which proves it has them, and its status tells nothing about the rest
 * of the company.
 */
export function* reusableBlob(c: Visibility, user: SessionUser, sha256: string) {
  if (!user.permissions.has('photos:read')) return null;
  const photo = yield* visiblePhotoOfBlob(c, user, sha256);
  return photo?.blobStatus === 'present' ? photo : null;
}

/** Records a presigned upload's owner when its bytes land (see `objectUploads` in the schema). */
export function* recordUpload(ctx: MutationContext, key: string): Op<void> {
  yield* io(
    ctx.sql.run(statements.objects.recordUpload, [key, ctx.user.companyId, ctx.user.id, nowIso(ctx)]),
  );
}

/**
 * Whether the user may read the bytes stored under `key` (GET /api/objects/image/{key}), and their type
 * when a photo row knows it. A key is never a capability: the bytes are exactly as visible as the rows
 * naming them, a live photo (photos:read) or a live log showing it (logs:read), each in the user's scope.
 * While no row of the company names the key, it is a fresh presigned upload, readable by its uploader only.
 * Once any row names it (even a deleted one), only those rows decide.
 */
export function* readableObject(
  c: Visibility,
  user: SessionUser,
  key: string,
): Op<{ mime: string | null } | null> {
  const o = statements.objects;
  const params = { key, ...scopeParams(user) };
  const variant = isScopedToAssignments(user) ? 'assigned' : 'company';
  if (user.permissions.has('photos:read')) {
    const photo = yield* io(c.sql.get(o.photo[variant], params));
    if (photo) return { mime: photo.mime };
  }
  if (user.permissions.has('logs:read') && (yield* io(c.sql.get(o.log[variant], params)))) {
    return { mime: null };
  }
  if (yield* io(c.sql.get(o.named, params))) return null;
  return (yield* io(c.sql.get(o.uploader, params))) === user.id ? { mime: null } : null;
}

/**
 * An object key a user may put into a log: one it may read (its own fresh upload, or bytes a photo or log
 * it can see shows). Anything else is a 404, as for any foreign id.
 */
export function* canReferenceObject(ctx: MutationContext, key: string): Op<boolean> {
  // Exactly the objects the user may read: naming a key in a log of one's own must not make readable
  // bytes that another log or photo keeps from the user (its own fresh upload is readable to it).
  return (yield* readableObject(ctx, ctx.user, key)) !== null;
}

/** Tombstones the row only: the bytes stay, since logs and devices that synced it may still point at them. */
export function* deletePhoto(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'photos:delete');
  const photo = yield* findVisiblePhoto(ctx, ctx.user, id);
  yield* tombstone(ctx, 'photos', [id]);
  yield* detachPhotoFromLogs(ctx, id, photo.projectId);
  yield* recordActivity(ctx, {
    actionType: 'photo_deleted',
    description: `Deleted photo ${photo.originalName ?? photo.description ?? photo.filename}`,
    entityType: 'photo',
    entityId: id,
    metadata: { projectId: photo.projectId },
  });
  return { id };
}
