import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { Id } from '#shared/schemas/common.ts';
import { StorageKey } from '#shared/schemas/photo.ts';
import type { AppEnv } from '../context.ts';
import { writeTx } from '../db/index.ts';
import { restContext } from '../mutators/core.ts';
import { readableObject, recordUpload } from '../mutators/photos.ts';
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
 * Bytes and type of a stored object the user may read, or null. Visibility is the rows' (`readableObject`):
 * the same scope as the photo or log naming the key, never the key alone.
 */
export async function findReadableImage(c: Context<AppEnv>, key: string) {
  const { store, db } = c.var.deps;
  if (!StorageKey.safeParse(key).success) return null;
  const access = readableObject(db, sessionUser(c), key);
  if (!access) return null;
  const bytes = await store.get(key);
  if (!bytes) return null;
  const mime = access.mime ?? (await readImageMeta(store, key))?.mime ?? (await sniffImage(bytes));
  return { bytes, mime };
}

/** Spec 02 section 7: POST upload -> PUT bytes to the signed address -> GET /api/objects/image/{key}. */
export const objectRoutes = new Hono<AppEnv>()
  .post('/upload', async (c) => {
    parseWith(UploadRequestSchema, await readOptionalJson(c));
    return c.json({ uploadURL: uploadUrl(newId(), sessionUser(c), c.var.deps.now()) });
  })
  .put('/upload/:key', async (c) => {
    const user = sessionUser(c);
    const { store, now, db } = c.var.deps;
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
    writeTx(db, () => recordUpload(restContext(db, user, now()), key));
    return c.json({ key });
  })
  .get('/image/:key', async (c) => {
    const image = await findReadableImage(c, c.req.param('key'));
    if (!image) throw notFound('Image');
    return c.body(new Uint8Array(image.bytes), 200, imageHeaders(image.mime, image.bytes.byteLength));
  });
