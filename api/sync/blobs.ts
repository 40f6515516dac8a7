import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import type { SessionUser } from '../context.ts';
import type { Database } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { valueStmt, type SqlConn } from '../db/sql.ts';
import { HttpError, badRequest, notFound } from '../http.ts';
import { restContext } from '../mutators/core.ts';
import { markBlobPresent, photoOfBlobVisible } from '../mutators/photos.ts';
import type { BlobStore } from '../storage/index.ts';
import { readCappedBody, sha256Hex, sniffImage, storeContentAddressed } from '../storage/sniff.ts';
import { syncNotifier } from './events.ts';

export const SHA256_HEX = /^[0-9a-f]{64}$/;

const COMPANY_HOLDS_BLOB = valueStmt<number>(
  `SELECT 1 FROM photos WHERE company_id = ? AND sha256 = ? AND filename = ? AND blob_status = 'present'
         LIMIT 1`,
);

/** The company already has these bytes under their hash: a present photo of its own points at them (B6). */
export function* companyHoldsBlob(c: { sql: SqlConn }, companyId: string, sha256: string): Op<boolean> {
  return (yield* io(c.sql.get(COMPANY_HOLDS_BLOB, [companyId, sha256, sha256]))) !== undefined;
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
  database: Database,
  store: BlobStore,
  user: SessionUser,
  sha256: string,
  req: Request,
  now: Date,
): Promise<BlobAnswer> {
  if (!SHA256_HEX.test(sha256)) {
    throw badRequest('The address must be the SHA-256 of the bytes, in lowercase hex', { sha256: 'invalid' });
  }
  if (!(await database.read((c) => photoOfBlobVisible(c, user, sha256))))
    throw notFound('Photo for these bytes');
  const bytes = await readCappedBody(req, MAX_PHOTO_BYTES);
  if (sha256Hex(bytes) !== sha256) {
    throw new HttpError(400, 'HASH_MISMATCH', 'The bytes do not match their SHA-256; upload them again');
  }
  const mime = await sniffImage(bytes);
  // B6, per company: the answer and the write depend only on the caller's company, never on whether
  // another company sent the same bytes (that would tell it who holds which file).
  const held = await database.read((c) => companyHoldsBlob(c, user.companyId, sha256));
  const stored = !(held && (await store.has(sha256)));
  if (stored) await storeContentAddressed(store, sha256, bytes);

  const photos = await database.writeTx(user.companyId, (conn) =>
    markBlobPresent(restContext(conn, user, now), sha256, { mimeType: mime, sizeBytes: bytes.byteLength }),
  );
  if (photos > 0) syncNotifier(database).poke(user.companyId);
  return { status: stored ? 201 : 200, body: { sha256, stored, photos } };
}
