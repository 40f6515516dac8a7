import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import type { SessionUser } from '../context.ts';
import { writeTx, type Db } from '../db/index.ts';
import { HttpError, badRequest, notFound } from '../http.ts';
import { nextVersion, restContext, stampFields } from '../mutators/core.ts';
import type { BlobStore } from '../storage/index.ts';
import { readCappedBody, sha256Hex, sniffImage, storeContentAddressed } from '../storage/sniff.ts';
import { syncNotifier } from './events.ts';

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The company already has these bytes under their hash: a present photo of its own points at them (B6). */
export function companyHoldsBlob(db: Db, companyId: string, sha256: string): boolean {
  return (
    db.$client
      .prepare<[string, string, string], number>(
        `SELECT 1 FROM photos WHERE company_id = ? AND sha256 = ? AND filename = ? AND blob_status = 'present'
         LIMIT 1`,
      )
      .pluck()
      .get(companyId, sha256, sha256) !== undefined
  );
}

export interface BlobAnswer {
  status: 200 | 201;
  body: { sha256: string; stored: boolean; photos: number };
}

/**
 * PUT /api/sync/blobs/{sha256} (sync/SPEC.md B1-B7): the bytes of photos whose rows were pushed first.
 * Checks run cheapest first and before the body is read: the hash's form, then whether the caller's company
 * has a photo waiting for it, then size while streaming, hash and type.
 */
export async function putBlob(
  db: Db,
  store: BlobStore,
  user: SessionUser,
  sha256: string,
  req: Request,
  now: Date,
): Promise<BlobAnswer> {
  if (!SHA256_HEX.test(sha256)) {
    throw badRequest('The address must be the SHA-256 of the bytes, in lowercase hex', { sha256: 'invalid' });
  }
  const wanted = db.$client
    .prepare<[string, string], { n: number }>(
      'SELECT 1 AS n FROM photos WHERE company_id = ? AND sha256 = ? LIMIT 1',
    )
    .get(user.companyId, sha256);
  if (!wanted) throw notFound('Photo for these bytes');
  const bytes = await readCappedBody(req, MAX_PHOTO_BYTES);
  if (sha256Hex(bytes) !== sha256) {
    throw new HttpError(400, 'HASH_MISMATCH', 'The bytes do not match their SHA-256; upload them again');
  }
  const mime = await sniffImage(bytes);
  // B6, per company: the answer and the write depend only on the caller's company, never on whether
  // another company sent the same bytes (that would tell it who holds which file).
  const stored = !(companyHoldsBlob(db, user.companyId, sha256) && (await store.has(sha256)));
  if (stored) await storeContentAddressed(store, sha256, bytes);

  const ctx = restContext(db, user, now);
  const photos = writeTx(db, () => {
    const waiting = db.$client
      .prepare<[string, string], { id: string; fieldMeta: string }>(
        `SELECT id, field_meta AS fieldMeta FROM photos
         WHERE company_id = ? AND sha256 = ? AND blob_status = 'pending' AND deleted_at IS NULL`,
      )
      .all(user.companyId, sha256);
    const update = db.$client.prepare(
      `UPDATE photos SET blob_status = 'present', filename = ?, mime_type = ?, size_bytes = ?, version = ?,
         field_meta = ?, updated_at = ?, updated_by = ? WHERE id = ?`,
    );
    for (const photo of waiting) {
      // A versioned write of its own, so every device pulls the photo as present (B7).
      const stamp = stampFields(
        ctx,
        nextVersion(ctx),
        ['blobStatus', 'filename', 'mimeType', 'sizeBytes'],
        JSON.parse(photo.fieldMeta) as Record<string, [number, number, string]>,
      );
      update.run(
        sha256,
        mime,
        bytes.byteLength,
        stamp.version,
        JSON.stringify(stamp.fieldMeta),
        stamp.updatedAt,
        stamp.updatedBy,
        photo.id,
      );
    }
    return waiting.length;
  });
  if (photos > 0) syncNotifier(db).poke(user.companyId);
  return { status: stored ? 201 : 200, body: { sha256, stored, photos } };
}
