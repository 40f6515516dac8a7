import crypto from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { HttpError, readCappedBytes } from '../http.ts';
import type { BlobStore } from './index.ts';

/**
 * Intake of uploaded images (DESIGN.md section 5): a byte cap enforced while reading, the type decided by
 * magic bytes (never by the client's Content-Type or file name), and storage with a metadata sidecar.
 */

export const ALLOWED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageType = (typeof ALLOWED_IMAGE_TYPES)[number];

export const tooLarge = () =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `Photos must be at most ${MAX_PHOTO_BYTES / 1_048_576} MB`);

export const unsupportedImage = () =>
  new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Only JPEG, PNG or WebP images are accepted');

/** The image type of `bytes` by their magic numbers, or a 415. */
export async function sniffImage(bytes: Uint8Array): Promise<ImageType> {
  const detected = await fileTypeFromBuffer(bytes);
  const mime = ALLOWED_IMAGE_TYPES.find((t) => t === detected?.mime);
  if (!mime) throw unsupportedImage();
  return mime;
}

/** `readCappedBytes` (api/http.ts) refusing with the photo limit's message unless told otherwise. */
export function readCappedBody(
  req: Request,
  limit: number,
  refuse: () => HttpError = tooLarge,
): Promise<Uint8Array<ArrayBuffer>> {
  return readCappedBytes(req, limit, refuse);
}

/**
 * Headers for serving stored image bytes. The type is the one detected at upload; `nosniff` and a sandbox
 * CSP keep a browser from ever running the bytes as a document. The bytes under a key never change
 * (single-use upload keys), so the browser may keep them for a year, privately.
 */
export function imageHeaders(mime: string, size: number): Record<string, string> {
  return {
    'Content-Type': mime,
    'Content-Length': String(size),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
    'Cache-Control': 'private, max-age=31536000, immutable',
  };
}

/** What the server knows about stored bytes, kept beside them as `${key}.meta` (no table needed). */
export interface ImageMeta {
  companyId: string;
  userId: string;
  mime: ImageType;
  size: number;
  sha256: string;
  /**
   * The object holding the bytes: their content address (ADR 024), so the same bytes uploaded twice are
   * stored once. Absent in sidecars written before that: the bytes are then under the key itself.
   */
  object?: string;
}

const metaKey = (key: string) => `${key}.meta`;

export const sha256Hex = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * Sniffs image bytes and stores them under their content address (once: bytes already there are not
 * written again), then the sidecar of `key` naming that address and the owner. The sidecar is written
 * last, so a sidecar always means the bytes are complete; readers check the sidecar first.
 */
export async function storeImage(
  store: BlobStore,
  key: string,
  bytes: Uint8Array,
  owner: { companyId: string; userId: string },
): Promise<ImageMeta> {
  if (bytes.byteLength > MAX_PHOTO_BYTES) throw tooLarge();
  const mime = await sniffImage(bytes);
  const sha256 = sha256Hex(bytes);
  const meta: ImageMeta = { ...owner, mime, size: bytes.byteLength, sha256, object: sha256 };
  // Who holds the key is decided by the sidecar and the rows naming the key, never by the shared object,
  // so reusing bytes another company stored tells nobody anything.
  // Written directly, not through storeContentAddressed: that would hash the bytes (up to 10 MiB) again to
  // check an address computed from them just above.
  if (!(await store.has(sha256))) await store.put(sha256, bytes);
  await store.put(metaKey(key), Buffer.from(JSON.stringify(meta)));
  return meta;
}

/**
 * Bytes stored under their own SHA-256 (the sync blob lane, sync/SPEC.md B6). Several companies may hold the
 * same bytes, so such a key has no single owner and no sidecar: each company's claim is its own photo rows
 * naming the key, and what a company sees never depends on what another one uploaded.
 */
const CONTENT_ADDRESS = /^[0-9a-f]{64}$/;
export const isContentAddress = (key: string) => CONTENT_ADDRESS.test(key);

/** Writes content-addressed bytes (no sidecar, see `isContentAddress`); rewriting the same bytes is harmless. */
export async function storeContentAddressed(
  store: BlobStore,
  sha256: string,
  bytes: Uint8Array,
): Promise<void> {
  if (!isContentAddress(sha256) || sha256Hex(bytes) !== sha256) {
    throw new Error('Content-addressed bytes must be stored under their own SHA-256');
  }
  await store.put(sha256, bytes);
}

/**
 * The sidecar of a single-owner object (presigned or multipart upload), or null. Content-addressed keys
 * answer null even when an old sidecar lies beside them (written by the first uploader before B6 became
 * per company): readers then decide by the caller's own photo rows.
 */
export async function readImageMeta(store: BlobStore, key: string): Promise<ImageMeta | null> {
  if (isContentAddress(key)) return null;
  const raw = await store.get(metaKey(key));
  if (!raw) return null;
  return JSON.parse(raw.toString('utf8')) as ImageMeta;
}

/**
 * The object holding the bytes under `key` and, for a single-owner upload, its sidecar: a content address
 * is its own object; an upload's sidecar names its object (or, written before ADR 024, the key itself).
 */
export async function locateImage(
  store: BlobStore,
  key: string,
): Promise<{ object: string; meta: ImageMeta | null }> {
  const meta = await readImageMeta(store, key);
  return { object: meta?.object ?? key, meta };
}

/**
 * Forgets an upload whose row insert failed: the sidecar goes (so the key names nothing), and bytes kept
 * under the key itself by older uploads. Content-addressed bytes stay: other keys may share them.
 */
export async function discardImage(store: BlobStore, key: string): Promise<void> {
  await store.delete(metaKey(key));
  if (!isContentAddress(key)) await store.delete(key);
}
