import { Hono } from 'hono';
import type { Context } from 'hono';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { Id } from '#shared/schemas/common.ts';
import { StorageKey } from '#shared/schemas/photo.ts';
import type { AppEnv } from '../context.ts';
import { schema } from '../db/index.ts';
import { HttpError, badRequest, conflict, isJsonType, notFound, parseWith } from '../http.ts';
import { uploadUrl, verifyUpload } from '../storage/signing.ts';
import {
  imageHeaders,
  readCappedBody,
  readImageMeta,
  sha256Hex,
  sniffImage,
  storeImage,
} from '../storage/sniff.ts';
import { sessionUser } from './helpers.ts';

const badSignature = () =>
  new HttpError(403, 'BAD_SIGNATURE', 'This upload address is invalid or has expired');

/** The spec's client sends an empty JSON object; nothing else is accepted in it. */
const UploadRequestSchema = z.strictObject({});

async function readOptionalJson(c: Context<AppEnv>): Promise<unknown> {
  const tooBig = () => new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Send an empty JSON object');
  const text = new TextDecoder().decode(await readCappedBody(c.req.raw, 1024, tooBig));
  if (text.trim() === '') return {};
  if (!isJsonType(c.req.header('content-type') ?? '')) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Body is not valid JSON');
  }
}

/**
 * Bytes and type of a stored object the user's company owns, or null. Objects from the presigned flow carry
 * a sidecar; photo bytes stored by other paths (seed, sync lane) are found through their photo row.
 */
export async function findCompanyImage(c: Context<AppEnv>, key: string) {
  const { store, db } = c.var.deps;
  const user = sessionUser(c);
  if (!StorageKey.safeParse(key).success) return null;
  let mime: string | null;
  const meta = await readImageMeta(store, key);
  if (meta) {
    if (meta.companyId !== user.companyId) return null;
    mime = meta.mime;
  } else {
    const photo = db
      .select({ mimeType: schema.photos.mimeType, blobStatus: schema.photos.blobStatus })
      .from(schema.photos)
      .where(
        and(
          eq(schema.photos.filename, key),
          eq(schema.photos.companyId, user.companyId),
          isNull(schema.photos.deletedAt),
        ),
      )
      .get();
    if (!photo || photo.blobStatus !== 'present') return null;
    mime = photo.mimeType;
  }
  const bytes = await store.get(key);
  if (!bytes) return null;
  return { bytes, mime: mime ?? (await sniffImage(bytes)) };
}

/** Spec 02 section 7: POST upload -> PUT bytes to the signed address -> GET /api/objects/image/{key}. */
export const objectRoutes = new Hono<AppEnv>()
  .post('/upload', async (c) => {
    parseWith(UploadRequestSchema, await readOptionalJson(c));
    return c.json({ uploadURL: uploadUrl(newId(), sessionUser(c), c.var.deps.now()) });
  })
  .put('/upload/:key', async (c) => {
    const user = sessionUser(c);
    const { store, now } = c.var.deps;
    const key = c.req.param('key');
    const signed = verifyUpload(
      { key, expires: c.req.query('expires'), userId: user.id, companyId: user.companyId },
      c.req.query('sig'),
      now(),
    );
    if (!signed || !Id.safeParse(key).success) throw badSignature();
    const bytes = await readCappedBody(c.req.raw, MAX_PHOTO_BYTES);
    const existing = await readImageMeta(store, key);
    if (existing) {
      // A retry of a finished upload (lost response) is fine; other bytes under a used key are not.
      if (existing.companyId === user.companyId && sha256Hex(bytes) === existing.sha256)
        return c.json({ key });
      throw conflict('This upload address has already been used', 'UPLOAD_USED');
    }
    await storeImage(store, key, bytes, { companyId: user.companyId, userId: user.id });
    return c.json({ key });
  })
  .get('/image/:key', async (c) => {
    const image = await findCompanyImage(c, c.req.param('key'));
    if (!image) throw notFound('Image');
    return c.body(new Uint8Array(image.bytes), 200, imageHeaders(image.mime, image.bytes.byteLength));
  });
