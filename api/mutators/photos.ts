import { and, desc, eq } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { PhotoCreateSchema } from '#shared/schemas/photo.ts';
import type { SessionUser } from '../context.ts';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import { visibleWhere } from '../db/scope.ts';
import { conflict, notFound } from '../http.ts';
import {
  findVisibleProject,
  lookupVisible,
  nextVersion,
  nowIso,
  recordActivity,
  requirePermission,
  stampFields,
  tombstone,
  validate,
  type MutationContext,
} from './core.ts';
import { statements } from './statements.ts';

const { photos } = schema;

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
export function listVisiblePhotos(db: Db, user: SessionUser, projectId?: string) {
  return db
    .select()
    .from(photos)
    .where(
      and(
        visibleWhere('photos', user),
        projectId === undefined ? undefined : eq(photos.projectId, projectId),
      ),
    )
    .orderBy(desc(photos.createdAt), desc(photos.id))
    .all();
}

/** A live photo the user may see, or 404 (also for another company's id). */
export function findVisiblePhoto(db: Db, user: SessionUser, id: string): typeof photos.$inferSelect {
  const s = statements(db);
  const raw = lookupVisible(s.photo, user, id);
  if (!raw) throw notFound('Photo');
  return s.rows.photos.decode(raw);
}

export function createPhoto(ctx: MutationContext, input: unknown, blob: PhotoBlob) {
  requirePermission(ctx, 'photos:create');
  const { userId: _ignored, ...data } = validate(PhotoCreateSchema, input);
  findVisibleProject(ctx.db, ctx.user, data.projectId);
  const id = data.id ?? newId();
  if (statements(ctx.db).exists.photos.get(id)) {
    throw conflict('A photo with this id already exists');
  }
  const version = nextVersion(ctx);
  const values = { ...data, ...blob, userId: ctx.user.id };
  const row = statements(ctx.db).rows.photos.insert({
    ...values,
    id,
    companyId: ctx.user.companyId,
    createdAt: nowIso(ctx),
    ...stampFields(ctx, version, Object.keys(values)),
  });
  recordActivity(ctx, {
    actionType: 'photo_uploaded',
    description: `Uploaded photo ${row.originalName ?? row.description ?? row.filename}`,
    entityType: 'photo',
    entityId: id,
    metadata: { projectId: row.projectId },
  });
  return row;
}

/** Tombstones the row only: the bytes stay, since logs and devices that synced it may still point at them. */
export function deletePhoto(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'photos:delete');
  const photo = findVisiblePhoto(ctx.db, ctx.user, id);
  tombstone(ctx, 'photos', [id]);
  recordActivity(ctx, {
    actionType: 'photo_deleted',
    description: `Deleted photo ${photo.originalName ?? photo.description ?? photo.filename}`,
    entityType: 'photo',
    entityId: id,
    metadata: { projectId: photo.projectId },
  });
  return { id };
}
