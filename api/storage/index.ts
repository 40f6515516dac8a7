import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Where photo bytes live. The disk store can be replaced by an S3-compatible one (DESIGN.md section 5). */
export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  has(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${key}`);
}

export class DiskBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    assertStorageKey(key);
    return path.join(this.dir, key);
  }

  /** Writes to a temp file, fsyncs, then renames: a crash never leaves a half file under the key. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.file(key);
    await fs.mkdir(this.dir, { recursive: true });
    const tmp = path.join(this.dir, `.tmp-${crypto.randomUUID()}`);
    const handle = await fs.open(tmp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, target);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await fs.access(this.file(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }
}
