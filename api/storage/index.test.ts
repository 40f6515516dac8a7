import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '../env.ts';
import { DiskBlobStore, openBlobStore, type BlobStore } from './index.ts';
import { startTestS3, type TestS3 } from './s3-test-server.ts';

let dir: string;
let store: DiskBlobStore;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-store-'));
  store = new DiskBlobStore(path.join(dir, 'photos'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(['disk', 's3'] as const)('the BlobStore contract, on %s', (backend) => {
  let s3: TestS3 | undefined;
  let blobs: BlobStore;
  beforeAll(async () => {
    s3 = backend === 's3' ? await startTestS3('contract') : undefined;
    blobs = await openBlobStore(parseEnv({ PHOTO_DIR: path.join(dir, 'contract'), ...s3?.env }));
  });
  afterAll(() => s3?.close());

  it('stores, reports, returns and deletes bytes under a key; a missing key is null, false, and deletable', async () => {
    const bytes = crypto.randomBytes(1000);
    await blobs.put('c-key', bytes);
    expect(await blobs.has('c-key')).toBe(true);
    expect((await blobs.get('c-key'))?.equals(bytes)).toBe(true);
    await blobs.delete('c-key');
    expect(await blobs.has('c-key')).toBe(false);
    expect(await blobs.get('c-key')).toBeNull();
    await expect(blobs.delete('c-key')).resolves.toBeUndefined();
  });

  it('refuses keys that could leave its place', async () => {
    await expect(blobs.put('../escape', Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
    await expect(blobs.get('a/b')).rejects.toThrow(/Invalid storage key/);
  });

  it('hands out an upload address whose bytes wait, with their grant, until claimed (S3) or none (disk)', async () => {
    const grant = { companyId: 'c1', userId: 'u1' };
    const url = await blobs.uploadTarget('01900000-0000-7000-8000-00000000000a', grant, new Date());
    if (backend === 'disk') {
      expect(url).toMatch(/^\/api\/objects\/upload\//);
      expect(await blobs.incoming('01900000-0000-7000-8000-00000000000a')).toBeNull();
      expect(blobs.origin).toBeNull();
      expect(await blobs.downloadUrl('c-key', 'image/png', new Date())).toBeNull();
      return;
    }
    const key = '01900000-0000-7000-8000-00000000000a';
    const waiting = await blobs.incoming(key);
    expect(waiting?.grant).toEqual(grant);
    expect(await waiting!.read(10)).toBeNull(); // nothing PUT yet
    expect((await fetch(url, { method: 'PUT', body: 'x'.repeat(50) })).status).toBe(200);
    // Only limit + 1 bytes are read, whatever was PUT.
    expect((await (await blobs.incoming(key))!.read(10))?.byteLength).toBe(11);
    expect(await blobs.has(key)).toBe(false);
    await blobs.dropIncoming(key);
    expect(await blobs.incoming(key)).toBeNull();
    await blobs.put('d-key', Buffer.from('shown'));
    const download = await blobs.downloadUrl('d-key', 'image/png', new Date());
    expect(new URL(download!).origin).toBe(blobs.origin);
    const res = await fetch(download!);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await res.text()).toBe('shown');
  });
});

describe('DiskBlobStore', () => {
  it('stores, reports and returns bytes under a key', async () => {
    const bytes = crypto.randomBytes(1000);
    await store.put('a-key', bytes);
    expect(await store.has('a-key')).toBe(true);
    expect((await store.get('a-key'))?.equals(bytes)).toBe(true);
  });

  it('returns null and false for a key that was never stored', async () => {
    expect(await store.get('missing')).toBeNull();
    expect(await store.has('missing')).toBe(false);
  });

  it('leaves no temp files behind after writes', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(`k${i}`, crypto.randomBytes(4096))));
    const names = fs.readdirSync(path.join(dir, 'photos'));
    expect(names.filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['k0', 'k19']));
  });

  it('replaces an existing key atomically: readers see the old or the new bytes, never a mix', async () => {
    const before = Buffer.alloc(2 * 1024 * 1024, 1);
    const after = Buffer.alloc(2 * 1024 * 1024, 2);
    await store.put('photo', before);
    const writing = store.put('photo', after);
    const seen = new Set<string>();
    let done = false;
    void writing.then(() => (done = true));
    while (!done) {
      const got = await store.get('photo');
      expect(got).not.toBeNull();
      expect(got!.length).toBe(before.length);
      seen.add(got!.equals(before) ? 'old' : got!.equals(after) ? 'new' : 'mixed');
    }
    await writing;
    expect(seen.has('mixed')).toBe(false);
    expect((await store.get('photo'))?.equals(after)).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'photos')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  });

  it('deletes a key, and deleting a missing key is not an error', async () => {
    await store.put('gone', Buffer.from('x'));
    await store.delete('gone');
    expect(await store.has('gone')).toBe(false);
    await expect(store.delete('gone')).resolves.toBeUndefined();
  });

  it('refuses keys that could leave its directory', async () => {
    await expect(store.put('../escape', Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
    await expect(store.get('a/../../b')).rejects.toThrow(/Invalid storage key/);
    await expect(store.put('.hidden', Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
    expect(fs.existsSync(path.join(dir, 'escape'))).toBe(false);
  });
});

describe('an S3 store that cannot be used at start', () => {
  it('stops the start with one line saying why: a missing bucket, refused keys', async () => {
    const s3 = await startTestS3('start');
    try {
      const open = (env: Record<string, string>) => openBlobStore(parseEnv({ ...s3.env, ...env }));
      await expect(open({ STORAGE_URL: 's3://no-such-bucket/x' })).rejects.toThrow(
        /^Invalid configuration: STORAGE_URL: cannot reach bucket no-such-bucket \(no such bucket, HTTP 404\)$/,
      );
      await expect(open({ AWS_ACCESS_KEY_ID: 'nobody' })).rejects.toThrow(
        /^Invalid configuration: STORAGE_URL: cannot reach bucket sitecommand-photos \(the store refused the access keys, HTTP 403\)$/,
      );
    } finally {
      await s3.close();
    }
  });
});

describe('an S3 store that stops answering while the server runs', () => {
  it('answers 503 STORAGE_UNAVAILABLE with Retry-After (a client tries again), not a 500', async () => {
    const s3 = await startTestS3('outage');
    const blobs = await openBlobStore(parseEnv(s3.env));
    await blobs.put('k1', Buffer.from('bytes'));
    await s3.close();
    for (const call of [
      () => blobs.has('k1'),
      () => blobs.get('k1'),
      () => blobs.put('k2', Buffer.from('x')),
    ]) {
      const err: unknown = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({
        status: 503,
        code: 'STORAGE_UNAVAILABLE',
        headers: { 'Retry-After': '30' },
      });
    }
  });
});
