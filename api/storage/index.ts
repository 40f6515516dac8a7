import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../env.ts';
import { uploadUrl } from './signing.ts';

/** Who asked for a presigned upload: only this user of this company may claim its bytes. */
export interface UploadGrant {
  companyId: string;
  userId: string;
}

/** Bytes a client PUT straight into the store, not yet claimed (sniffed, sized, stored by content). */
export interface IncomingUpload {
  grant: UploadGrant;
  /**
   * Reads at most `limit + 1` bytes, so a body over the limit is seen without reading all of it; null while
   * the client has not PUT anything yet.
   */
  read(limit: number): Promise<Uint8Array | null>;
}

/**
 * Where photo bytes live: on disk (the default) or in an S3-compatible bucket (ADR 024). This is the one
 * seam between them; every rule about the bytes (size, type, dedupe by content, who owns an upload, who may
 * read it) sits above it in `sniff.ts`, `uploads.ts` and the routes, and so behaves the same on both.
 */
export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  has(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** The address a client PUTs the bytes of a presigned upload of `key` to (spec 02 section 7). */
  uploadTarget(key: string, grant: UploadGrant, now: Date): Promise<string>;
  /**
   * An upload PUT straight into the store under `key` and not claimed yet, or null. Always null on disk:
   * there the PUT comes through the app, which claims the bytes as they arrive.
   */
  incoming(key: string): Promise<IncomingUpload | null>;
  /** Forgets an incoming upload and its grant, once claimed or refused. */
  dropIncoming(key: string): Promise<void>;
  /**
   * A short-lived address the browser fetches the bytes under `key` from, served as `mime`, or null when
   * the app serves them itself (disk). Called only after the caller's right to read them was checked.
   */
  downloadUrl(key: string, mime: string, now: Date): Promise<string | null>;
  /**
   * The origin browsers reach the store at (for the CSP), or null when it is the app's own: the app then
   * receives every upload itself, so `incoming` never has anything waiting.
   */
  readonly origin: string | null;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${key}`);
}

export class DiskBlobStore implements BlobStore {
  readonly origin = null;

  constructor(private readonly dir: string) {}

  /** Our own signed address: the PUT comes to the app, which checks the signature and claims the bytes. */
  uploadTarget(key: string, grant: UploadGrant, now: Date): Promise<string> {
    return Promise.resolve(uploadUrl(key, { id: grant.userId, companyId: grant.companyId }, now));
  }

  incoming(): Promise<IncomingUpload | null> {
    return Promise.resolve(null);
  }

  dropIncoming(): Promise<void> {
    return Promise.resolve();
  }

  downloadUrl(): Promise<string | null> {
    return Promise.resolve(null);
  }

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

/**
 * The store the environment asks for: disk under PHOTO_DIR unless STORAGE_URL names an S3 bucket. The S3
 * SDK is loaded only then, so a disk-only server never pays for it.
 */
export async function openBlobStore(env: Env): Promise<BlobStore> {
  if (!env.STORAGE_URL) return new DiskBlobStore(env.PHOTO_DIR);
  const { S3BlobStore, s3ClientFor } = await import('./s3.ts');
  return S3BlobStore.open(s3ClientFor(env), env.STORAGE_URL);
}
