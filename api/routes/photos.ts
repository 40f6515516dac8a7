import { Hono } from 'hono';
import type { Context } from 'hono';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { Id } from '#shared/schemas/common.ts';
import { PhotoCreateSchema, photoFileUrl } from '#shared/schemas/photo.ts';
import type { AppEnv } from '../context.ts';
import { HttpError, badRequest, notFound, parseWith, readJson } from '../http.ts';
import { findVisibleProject, publicRow } from '../mutators/core.ts';
import {
  createPhoto,
  deletePhoto,
  findVisiblePhoto,
  listVisiblePhotos,
  PHOTOS_ORDER,
  readableObject,
  type PhotoBlob,
  type PhotoRow,
} from '../mutators/photos.ts';
import { discardImage, readCappedBody, storeImage, tooLarge } from '../storage/sniff.ts';
import { uploadedImage } from '../storage/uploads.ts';
import { sendImage } from './objects.ts';
import { mutate, read, sessionUser } from './helpers.ts';
import { afterWhere, pageRequest, readLimit, sendPage } from './paging.ts';

/** Room for the multipart boundaries and the text fields around a file of the maximum size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const toJson = (row: PhotoRow) => ({ ...publicRow(row), url: photoFileUrl(row.id) });

/** Multipart upload (project gallery dialog): file, projectId, description, tags, userId (ignored). */
async function createFromForm(c: Context<AppEnv>) {
  const { store } = c.var.deps;
  const user = sessionUser(c);
  // The whole body is capped while it streams in, before anything parses it.
  const raw = await readCappedBody(c.req.raw, MAX_PHOTO_BYTES + MULTIPART_OVERHEAD);
  let form: FormData;
  try {
    const type = c.req.header('content-type') ?? '';
    form = await new Request(c.req.url, {
      method: 'POST',
      headers: { 'content-type': type },
      body: raw,
    }).formData();
  } catch {
    throw badRequest('Body is not a valid multipart form');
  }
  const files = form.getAll('file');
  const file = files[0];
  if (!(file instanceof File)) throw badRequest('File is required', { file: 'File is required' });
  if (files.length > 1) throw badRequest('Send one file per request', { file: 'Send one file per request' });
  if (file.size > MAX_PHOTO_BYTES) throw tooLarge();
  const fields: Record<string, unknown> = {};
  const tags: string[] = [];
  for (const [name, value] of form) {
    if (name === 'file') continue;
    if (typeof value !== 'string') throw badRequest(`Field ${name} must be text`, { [name]: 'must be text' });
    if (name === 'tags') tags.push(...value.split(','));
    else fields[name] = value;
  }
  const key = newId();
  const input = { ...fields, tags, originalName: fields.originalName ?? (file.name || null), filename: key };
  // Refuse bad fields and invisible projects before any byte is written.
  const { projectId } = parseWith(PhotoCreateSchema, input);
  await read(c, (conn) => findVisibleProject(conn, user, projectId));
  const meta = await storeImage(store, key, new Uint8Array(await file.arrayBuffer()), {
    companyId: user.companyId,
    userId: user.id,
  });
  const blob: PhotoBlob = {
    mimeType: meta.mime,
    sizeBytes: meta.size,
    sha256: meta.sha256,
    blobStatus: 'present',
  };
  try {
    return await mutate(c, (ctx) => createPhoto(ctx, input, blob));
  } catch (err) {
    await discardImage(store, key);
    throw err;
  }
}

/** JSON create after a presigned upload (gallery screen): `filename` is the object key that was PUT. */
async function createFromUpload(c: Context<AppEnv>) {
  const body = await readJson(c);
  const { filename } = parseWith(PhotoCreateSchema, body);
  const user = sessionUser(c);
  // The first use of a presigned upload on S3 claims it (ADR 024).
  const meta = await uploadedImage(c.var.deps, user, filename);
  // The key must name bytes the user may read (its own fresh upload, or a photo it can see): a key alone
  // must not turn another project's photo into one of the caller's.
  if (
    !meta ||
    meta.companyId !== user.companyId ||
    !(await read(c, (conn) => readableObject(conn, user, filename)))
  ) {
    throw notFound('Upload');
  }
  const blob: PhotoBlob = {
    mimeType: meta.mime,
    sizeBytes: meta.size,
    sha256: meta.sha256,
    blobStatus: 'present',
  };
  return await mutate(c, (ctx) => createPhoto(ctx, body, blob));
}

async function servePhoto(c: Context<AppEnv>) {
  const user = sessionUser(c);
  const photo = await read(c, (conn) => findVisiblePhoto(conn, user, c.req.param('id') ?? ''));
  if (photo.blobStatus !== 'present') {
    throw new HttpError(404, 'BLOB_PENDING', 'This photo has not finished uploading yet');
  }
  const answer = await sendImage(c, photo.filename, photo.mimeType);
  if (!answer) throw notFound('Photo file');
  return answer;
}

export const photoRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const projectId = c.req.query('projectId');
    if (projectId !== undefined && !Id.safeParse(projectId).success) {
      throw badRequest('ProjectId: must be a valid id', { projectId: 'must be a valid id' });
    }
    const page = pageRequest(c);
    const user = sessionUser(c);
    const rows = await read(c, (conn) =>
      listVisiblePhotos(conn, user, projectId, {
        after: afterWhere(PHOTOS_ORDER, page.after),
        limit: readLimit(page),
      }),
    );
    return sendPage(c, page, rows.map(toJson), (r) => [r.createdAt, r.id]);
  })
  .post('/', async (c) => {
    const multipart = /^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '');
    const row = multipart ? await createFromForm(c) : await createFromUpload(c);
    return c.json(toJson(row), 201);
  })
  .get('/:id', servePhoto)
  .get('/:id/file', servePhoto)
  .delete('/:id', async (c) => c.json(await mutate(c, (ctx) => deletePhoto(ctx, c.req.param('id')))));
