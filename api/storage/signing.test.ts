import { describe, it, expect } from 'vitest';
import { UPLOAD_URL_TTL_SECONDS, uploadUrl, verifyUpload } from './signing.ts';

const user = {
  id: '0190a0a0-0000-7000-8000-000000000001',
  companyId: '0190a0a0-0000-7000-8000-0000000000c1',
};
const key = '0190a0a0-0000-7000-8000-0000000000aa';
const now = new Date('2025-03-01T12:00:00.000Z');

function parse(url: string) {
  const u = new URL(url, 'http://x');
  return {
    key: decodeURIComponent(u.pathname.split('/').pop()!),
    expires: u.searchParams.get('expires') ?? undefined,
    sig: u.searchParams.get('sig') ?? undefined,
  };
}

describe('signed upload URLs', () => {
  it('point at the upload route with an expiry 15 minutes ahead', () => {
    const url = uploadUrl(key, user, now);
    expect(url).toMatch(new RegExp(`^/api/objects/upload/${key}\\?expires=\\d+&sig=[0-9a-f]{64}$`));
    expect(Number(parse(url).expires)).toBe(now.getTime() / 1000 + UPLOAD_URL_TTL_SECONDS);
  });

  it('verify for the same key, user and company before expiry', () => {
    const p = parse(uploadUrl(key, user, now));
    expect(
      verifyUpload(
        { key: p.key, expires: p.expires, userId: user.id, companyId: user.companyId },
        p.sig,
        now,
      ),
    ).toBe(true);
  });

  it('fail after expiry', () => {
    const p = parse(uploadUrl(key, user, now));
    const later = new Date(now.getTime() + (UPLOAD_URL_TTL_SECONDS + 1) * 1000);
    expect(
      verifyUpload(
        { key: p.key, expires: p.expires, userId: user.id, companyId: user.companyId },
        p.sig,
        later,
      ),
    ).toBe(false);
  });

  it('fail for another user, another company, another key or a moved expiry', () => {
    const p = parse(uploadUrl(key, user, now));
    const base = { key: p.key, expires: p.expires, userId: user.id, companyId: user.companyId };
    expect(verifyUpload({ ...base, userId: `${user.id.slice(0, -1)}2` }, p.sig, now)).toBe(false);
    expect(verifyUpload({ ...base, companyId: `${user.companyId.slice(0, -1)}2` }, p.sig, now)).toBe(false);
    expect(verifyUpload({ ...base, key: `${key.slice(0, -1)}b` }, p.sig, now)).toBe(false);
    expect(verifyUpload({ ...base, expires: String(Number(p.expires) + 3600) }, p.sig, now)).toBe(false);
  });

  it('fail for a missing, malformed or tampered signature', () => {
    const p = parse(uploadUrl(key, user, now));
    const base = { key: p.key, expires: p.expires, userId: user.id, companyId: user.companyId };
    expect(verifyUpload(base, undefined, now)).toBe(false);
    expect(verifyUpload(base, 'abc', now)).toBe(false);
    const flipped = (p.sig!.startsWith('0') ? '1' : '0') + p.sig!.slice(1);
    expect(verifyUpload(base, flipped, now)).toBe(false);
    expect(verifyUpload({ ...base, expires: undefined }, p.sig, now)).toBe(false);
  });
});
