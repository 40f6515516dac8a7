import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DiskBlobStore } from './index.ts';

let dir: string;
let store: DiskBlobStore;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitecommand-store-'));
  store = new DiskBlobStore(path.join(dir, 'photos'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
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
