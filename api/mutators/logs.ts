import { type SQL, and, desc, eq, inArray, isNotNull, isNull, like } from 'drizzle-orm';
import { newId } from '#shared/ids.ts';
import { LogCreateSchema, LogPatchSchema } from '#shared/schemas/log.ts';
import { photoFileUrl } from '#shared/schemas/photo.ts';
import type { SessionUser } from '../context.ts';
import type { Conn } from '../db/database.ts';
import { schema } from '../db/index.ts';
import { io, type Op } from '../db/op.ts';
import { visibleWhere } from '../db/scope.ts';
import { conflict, notFound } from '../http.ts';
import {
  idTaken,
  findVisibleProject,
  lookupVisible,
  nextVersion,
  occurredIso,
  recordActivity,
  requirePermission,
  stampFields,
  tombstone,
  validate,
  type MutationContext,
  type Visibility,
} from './core.ts';
import { canReferenceObject } from './photos.ts';
import { OBJECT_URL_PREFIX, statements } from './statements.ts';

const { projectLogs, photos } = schema;

/** Logs the user may see (`api/db/scope.ts`), newest first, optionally of one project. */
/** Newest first; the id breaks ties (the order REST pages by). */
export const LOGS_ORDER = [
  { column: projectLogs.createdAt, desc: true },
  { column: projectLogs.id, desc: true },
] as const;

export function* listVisibleLogs(
  c: Conn,
  user: SessionUser,
  projectId?: string,
  page: { after?: SQL; limit?: number } = {},
) {
  return yield* io(
    c.db
      .select()
      .from(projectLogs)
      .where(
        and(
          visibleWhere('project_logs', user),
          projectId === undefined ? undefined : eq(projectLogs.projectId, projectId),
          page.after,
        ),
      )
      .orderBy(desc(projectLogs.createdAt), desc(projectLogs.id))
      .limit(page.limit ?? -1)
      .all(),
  );
}

/** A live log the user may see, or 404. */
export function* findVisibleLog(
  c: Visibility,
  user: SessionUser,
  id: string,
): Op<typeof projectLogs.$inferSelect> {
  const row = yield* lookupVisible(c, statements.log, user, id);
  if (!row) throw notFound('Project log');
  return row;
}

const PHOTO_URL = /^\/api\/photos\/([^/]+)/;

/**
 * Images newly referenced by a log must be ones the author can see: photos in its scope, objects uploaded
 * by its company (another company's id or key is a 404, as for any id in a body). Checked here, not in a
 * route, so REST and sync push apply the same rule. References already on the log are not re-checked, so
 * deleting a photo never makes its log uneditable.
 */
function* checkImageReferences(
  ctx: MutationContext,
  images: readonly string[],
  existing: readonly string[] = [],
): Op<string[]> {
  const added = images.filter((u) => !existing.includes(u));
  for (const url of added) {
    if (!url.startsWith(OBJECT_URL_PREFIX)) continue;
    if (!(yield* canReferenceObject(ctx, url.slice(OBJECT_URL_PREFIX.length)))) throw notFound('Image');
  }
  const ids = [...new Set(added.flatMap((u) => PHOTO_URL.exec(u)?.[1] ?? []))];
  if (!ids.length) return [...images];
  const found = yield* io(
    ctx.db
      .select({ id: photos.id })
      .from(photos)
      .where(and(inArray(photos.id, ids), visibleWhere('photos', ctx.user)))
      .all(),
  );
  if (found.length === ids.length) return [...images];
  // A photo of this company deleted from the gallery since the device read the log (detachPhotoFromLogs
  // took it out): the device's list still names it. It is left out, not refused, so the rest of the edit
  // is saved; any other id is one the user may not see.
  const visible = new Set(found.map((r) => r.id));
  const missing = ids.filter((id) => !visible.has(id));
  const deleted = yield* io(
    ctx.db
      .select({ id: photos.id })
      .from(photos)
      .where(
        and(
          inArray(photos.id, missing),
          eq(photos.companyId, ctx.user.companyId),
          isNotNull(photos.deletedAt),
        ),
      )
      .all(),
  );
  if (deleted.length !== missing.length) throw notFound('Photo');
  const gone = new Set(deleted.map((r) => r.id));
  return images.filter((u) => {
    const id = PHOTO_URL.exec(u)?.[1];
    return !(id && gone.has(id) && !existing.includes(u));
  });
}

/**
 * A photo deleted from the gallery leaves the logs that show it: its address would be a grey "Photo" box
 * for ever. Each log of its project that lists it is changed without it, as the deleter's change (a new
 * version and field meta), so every device's copy follows with its next pull.
 */
export function* detachPhotoFromLogs(ctx: MutationContext, photoId: string, projectId: string): Op<void> {
  const url = photoFileUrl(photoId);
  const logs = yield* io(
    ctx.db
      .select()
      .from(projectLogs)
      .where(
        and(
          eq(projectLogs.companyId, ctx.user.companyId),
          eq(projectLogs.projectId, projectId),
          isNull(projectLogs.deletedAt),
          like(projectLogs.images, `%${photoId}%`),
        ),
      )
      .all(),
  );
  for (const log of logs) {
    if (!log.images.includes(url)) continue;
    const version = yield* nextVersion(ctx);
    yield* statements.rows.projectLogs.update(
      ctx.sql,
      log.id,
      ctx.user.companyId,
      {
        images: log.images.filter((u) => u !== url),
        ...stampFields(ctx, version, ['images'], log.fieldMeta),
      },
      log,
    );
  }
}

export function* createLog(ctx: MutationContext, input: unknown) {
  requirePermission(ctx, 'logs:create');
  const { userId: _ignored, ...data } = validate(LogCreateSchema, input);
  const project = yield* findVisibleProject(ctx, ctx.user, data.projectId);
  data.images = yield* checkImageReferences(ctx, data.images);
  const id = data.id ?? newId();
  if (yield* idTaken(ctx, 'project_logs', id)) {
    throw conflict('A project log with this id already exists');
  }
  const version = yield* nextVersion(ctx);
  const values = { ...data, userId: ctx.user.id };
  const row = yield* statements.rows.projectLogs.insert(ctx.sql, {
    ...values,
    id,
    companyId: ctx.user.companyId,
    createdAt: occurredIso(ctx),
    ...stampFields(ctx, version, Object.keys(values)),
  });
  yield* recordActivity(ctx, {
    actionType: 'log_created',
    description: `Wrote ${row.type} log "${row.title}" on ${project.name}`,
    entityType: 'project_log',
    entityId: id,
    metadata: { projectId: row.projectId, type: row.type },
  });
  return row;
}

export function* updateLog(ctx: MutationContext, id: string, input: unknown) {
  requirePermission(ctx, 'logs:update');
  const { userId: _ignored, ...patch } = validate(LogPatchSchema, input);
  const current = yield* findVisibleLog(ctx, ctx.user, id);
  if (patch.projectId !== undefined && patch.projectId !== current.projectId) {
    yield* findVisibleProject(ctx, ctx.user, patch.projectId);
  }
  if (patch.images) patch.images = yield* checkImageReferences(ctx, patch.images, current.images);
  const version = yield* nextVersion(ctx);
  const row = yield* statements.rows.projectLogs.update(
    ctx.sql,
    id,
    ctx.user.companyId,
    { ...patch, ...stampFields(ctx, version, Object.keys(patch), current.fieldMeta) },
    current,
  );
  const changed = Object.keys(patch);
  yield* recordActivity(ctx, {
    actionType: 'log_updated',
    description:
      patch.status && patch.status !== current.status
        ? `Moved log "${current.title}" to ${patch.status}`
        : `Updated log "${row?.title ?? current.title}"`,
    entityType: 'project_log',
    entityId: id,
    metadata: { fields: changed },
  });
  return row ?? current;
}

export function* deleteLog(ctx: MutationContext, id: string) {
  requirePermission(ctx, 'logs:delete');
  const log = yield* findVisibleLog(ctx, ctx.user, id);
  yield* tombstone(ctx, 'project_logs', [id]);
  yield* recordActivity(ctx, {
    actionType: 'log_deleted',
    description: `Deleted log "${log.title}"`,
    entityType: 'project_log',
    entityId: id,
    metadata: { projectId: log.projectId },
  });
  return { id };
}
