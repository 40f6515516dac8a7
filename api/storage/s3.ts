import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ConfigError, type Env, type S3Location } from '../env.ts';
import { HttpError } from '../http.ts';
import { UPLOAD_URL_TTL_SECONDS } from './signing.ts';
import { assertStorageKey, type BlobStore, type IncomingUpload, type UploadGrant } from './index.ts';

/**
 * Photo bytes in an S3-compatible bucket (ADR 024). Keys are those of the disk store, under the prefix;
 * presigned uploads land under `incoming/` (with a `.grant` object saying who asked) until the app claims
 * them, so nothing a client PUT straight into the bucket is ever served before it was sniffed and sized.
 */

/**
 * Presigned downloads are signed for a fixed 5-minute window rather than the moment of the request, so the
 * same photo gets the same address for a while and the browser's cache can answer a repeat view.
 */
const DOWNLOAD_WINDOW_MS = 5 * 60_000;
/** Twice the window: an address handed out at the end of a window still works for 5 minutes. */
const DOWNLOAD_URL_TTL_SECONDS = (2 * DOWNLOAD_WINDOW_MS) / 1000;

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** The S3 client the environment describes (the keys, or else the SDK's own chain: instance or pod roles). */
export function s3ClientFor(env: Env): S3Client {
  return new S3Client({
    region: env.AWS_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false,
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
        : undefined,
    // The SDK's default adds CRC checksums to every PUT and to presigned PUT addresses (which a spec 02
    // client could not satisfy); many S3-compatible stores refuse them too. We hash the bytes ourselves.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** What the AWS SDK's errors carry: the store's HTTP status when it answered at all. */
type SdkError = { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };

export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: S3Client,
    private readonly location: S3Location,
    readonly origin: string,
  ) {}

  /**
   * Opens the store, failing at start with one line when the bucket cannot be reached (a wrong endpoint,
   * name or key), not at the first photo. The origin browsers will talk to is the one the SDK itself signs
   * addresses for.
   */
  static async open(client: S3Client, location: S3Location): Promise<S3BlobStore> {
    try {
      await client.send(new HeadBucketCommand({ Bucket: location.bucket }));
    } catch (err) {
      const e = err as SdkError;
      const status = e.$metadata?.httpStatusCode;
      // A HEAD has no body, so the SDK names a refusal only by its status ('Unknown', 'NotFound').
      const why =
        status === 403
          ? 'the store refused the access keys, HTTP 403'
          : status === 404
            ? 'no such bucket, HTTP 404'
            : status
              ? `${e.name ?? 'Error'}, HTTP ${status}`
              : `${e.name ?? 'Error'}, ${e.message ?? ''}`;
      throw new ConfigError(
        `Invalid configuration: STORAGE_URL: cannot reach bucket ${location.bucket} (${why})`.replace(
          /\s+/g,
          ' ',
        ),
      );
    }
    const probe = await getSignedUrl(client, new GetObjectCommand({ Bucket: location.bucket, Key: 'probe' }));
    return new S3BlobStore(client, location, new URL(probe).origin);
  }

  /**
   * Every request of a running server to the store. A store that cannot be reached or fails (no answer, a
   * 5xx) answers the client 503 with Retry-After, as a busy database does, and logs one line, not the SDK's
   * whole error; the store's own refusals (missing object, bad range) pass through to the caller.
   */
  private async reach<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      const e = err as SdkError;
      const status = e.$metadata?.httpStatusCode;
      if (status !== undefined && status < 500) throw err;
      console.error(`photo storage unavailable: ${e.name ?? 'Error'}: ${e.message ?? ''}`.trim());
      throw new HttpError(
        503,
        'STORAGE_UNAVAILABLE',
        'Photo storage is not reachable right now; try again shortly',
        undefined,
        { 'Retry-After': '30' },
      );
    }
  }

  private path(key: string): string {
    assertStorageKey(key);
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  /** Stored keys never hold a slash, so nothing a client can name reaches `incoming/`. */
  private incomingPath(key: string): string {
    return this.path(key).replace(/[^/]+$/, (name) => `incoming/${name}`);
  }

  private async read(path: string, range?: string): Promise<Buffer | null> {
    try {
      const res = await this.reach(() =>
        this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: path, Range: range })),
      );
      return Buffer.from((await res.Body?.transformToByteArray()) ?? []);
    } catch (err) {
      if (isMissing(err)) return null;
      // A range on an empty object is "not satisfiable": it holds no bytes at all.
      if ((err as { name?: string }).name === 'InvalidRange') return Buffer.alloc(0);
      throw err;
    }
  }

  private async write(path: string, bytes: Uint8Array, contentType?: string): Promise<void> {
    await this.reach(() =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: path,
          Body: bytes,
          ContentType: contentType,
        }),
      ),
    );
  }

  private async remove(path: string): Promise<void> {
    await this.reach(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: path })),
    );
  }

  /** One PUT: S3 never shows a half-written object, so no temp-and-rename is needed. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.write(this.path(key), bytes);
  }

  async get(key: string): Promise<Buffer | null> {
    return this.read(this.path(key));
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.reach(() =>
        this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.path(key) })),
      );
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** Deleting a missing object succeeds in S3, as on disk. */
  async delete(key: string): Promise<void> {
    await this.remove(this.path(key));
  }

  /** Records the grant beside the upload's place, then presigns one PUT to it, valid for 15 minutes. */
  async uploadTarget(key: string, grant: UploadGrant, now: Date): Promise<string> {
    const target = this.incomingPath(key);
    await this.write(`${target}.grant`, Buffer.from(JSON.stringify(grant)), 'application/json');
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.location.bucket, Key: target }), {
      expiresIn: UPLOAD_URL_TTL_SECONDS,
      signingDate: now,
    });
  }

  async incoming(key: string): Promise<IncomingUpload | null> {
    const target = this.incomingPath(key);
    const raw = await this.read(`${target}.grant`);
    if (!raw) return null;
    const grant = JSON.parse(raw.toString('utf8')) as UploadGrant;
    return {
      grant,
      // A presigned PUT cannot limit its size, so the bytes are fetched with a range: one byte past the
      // limit is enough to refuse them, however large the object is.
      read: async (limit) => {
        const bytes = await this.read(target, `bytes=0-${limit}`);
        return bytes && new Uint8Array(bytes);
      },
    };
  }

  async dropIncoming(key: string): Promise<void> {
    const target = this.incomingPath(key);
    // The grant goes first: bytes without a grant can never be claimed, a grant without bytes can.
    await this.remove(`${target}.grant`);
    await this.remove(target);
  }

  downloadUrl(key: string, mime: string, now: Date): Promise<string> {
    const signingDate = new Date(Math.floor(now.getTime() / DOWNLOAD_WINDOW_MS) * DOWNLOAD_WINDOW_MS);
    const command = new GetObjectCommand({
      Bucket: this.location.bucket,
      Key: this.path(key),
      // The type detected at upload, never the one stored with the object (a presigned PUT sets its own).
      ResponseContentType: mime,
      ResponseContentDisposition: 'inline',
      ResponseCacheControl: `private, max-age=${DOWNLOAD_WINDOW_MS / 1000}`,
    });
    return getSignedUrl(this.client, command, { expiresIn: DOWNLOAD_URL_TTL_SECONDS, signingDate });
  }
}
