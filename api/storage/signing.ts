import crypto from 'node:crypto';

/**
 * Signed upload URLs for the presigned flow of spec 02 (`POST /api/objects/upload` -> PUT -> GET image),
 * served by this app instead of a cloud bucket (DESIGN.md section 5).
 *
 * The HMAC secret is random per process and never leaves memory: nothing to configure, nothing to leak.
 * An upload URL lives 15 minutes, so a restart only costs a client whose URL was in flight a fresh
 * `POST /api/objects/upload`. (Several server processes behind one address would need a shared secret.)
 */
const SECRET = crypto.randomBytes(32);

export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

export interface UploadGrant {
  key: string;
  /** Epoch seconds after which the URL is refused. */
  expires: number;
  userId: string;
  companyId: string;
}

export function signUpload(grant: UploadGrant): string {
  return crypto
    .createHmac('sha256', SECRET)
    .update([grant.key, grant.expires, grant.userId, grant.companyId].join('|'))
    .digest('hex');
}

/** A URL for one upload of `key` by this user, valid for 15 minutes from `now`. */
export function uploadUrl(key: string, user: { id: string; companyId: string }, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + UPLOAD_URL_TTL_SECONDS;
  const sig = signUpload({ key, expires, userId: user.id, companyId: user.companyId });
  return `/api/objects/upload/${encodeURIComponent(key)}?expires=${expires}&sig=${sig}`;
}

/** True when `sig` was made by this process for this key, user and company and has not expired. */
export function verifyUpload(
  grant: Omit<UploadGrant, 'expires'> & { expires: string | undefined },
  sig: string | undefined,
  now: Date,
): boolean {
  if (!grant.expires || !/^\d{1,12}$/.test(grant.expires) || !sig || !/^[0-9a-f]{64}$/.test(sig))
    return false;
  const expires = Number(grant.expires);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(signUpload({ ...grant, expires }), 'hex');
  return crypto.timingSafeEqual(expected, Buffer.from(sig, 'hex'));
}
