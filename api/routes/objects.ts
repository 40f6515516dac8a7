import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { Id } from '#shared/schemas/common.ts';
import { StorageKey } from '#shared/schemas/photo.ts';
import type { AppEnv } from '../context.ts';
import { readableObject } from '../mutators/photos.ts';
import { HttpError, badRequest, conflict, isJsonType, notFound, parseWith } from '../http.ts';
import { verifyUpload } from '../storage/signing.ts';
import {
  imageHeaders,
  locateImage,
  readCappedBody,
  readImageMeta,
  sha256Hex,
  sniffImage,
} from '../storage/sniff.ts';
import { acceptUpload, claimUpload } from '../storage/uploads.ts';
import { read, sessionUser } from './helpers.ts';

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
 * Sends stored image bytes after the caller's right to read them was checked: a 302 to a short-lived
 * address of the store when it has one (S3) and the type is known, else the bytes from the app.
 */
export async function sendImage(c: Context<AppEnv>, key: string, knownMime: string | null) {
  const { store, now } = c.var.deps;
  const { object, meta } = await locateImage(store, key);
  const mime = knownMime ?? meta?.mime ?? null;
  const url = mime ? await store.downloadUrl(object, mime, now()) : null;
  if (url) return c.redirect(url, 302);
  const bytes = await store.get(object);
  if (!bytes) return null;
  const type = mime ?? (await sniffImage(bytes));
  return c.body(new Uint8Array(bytes), 200, imageHeaders(type, bytes.byteLength));
}

/**
 * The answer for a stored object the user may read, or null. Visibility is the rows' (`readableObject`):
 * the same scope as the photo or log naming the key, never the key alone. The uploader's first read of a
 * presigned upload claims it (ADR 024).
 */
export async function serveReadableImage(c: Context<AppEnv>, key: string) {
  if (!StorageKey.safeParse(key).success) return null;
  const user = sessionUser(c);
  await claimUpload(c.var.deps, user, key);
  const access = await read(c, (conn) => readableObject(conn, user, key));
  if (!access) return null;
  return sendImage(c, key, access.mime);
}

/** Spec 02 section 7: POST upload -> PUT bytes to the signed address -> GET /api/objects/image/{key}. */
export const objectRoutes = new Hono<AppEnv>()
  .post('/upload', async (c) => {
    parseWith(UploadRequestSchema, await readOptionalJson(c));
    const user = sessionUser(c);
    const grant = { companyId: user.companyId, userId: user.id };
    return c.json({ uploadURL: await c.var.deps.store.uploadTarget(newId(), grant, c.var.deps.now()) });
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
    await acceptUpload(c.var.deps, user, key, bytes);
    return c.json({ key });
  })
  .get('/image/:key', async (c) => {
    const answer = await serveReadableImage(c, c.req.param('key'));
    if (!answer) throw notFound('Image');
    return answer;
  });
