import pLimit from 'p-limit';
import { MAX_PHOTO_BYTES } from '#shared/enums.ts';
import { StorageKey } from '#shared/schemas/photo.ts';
import type { AppDeps, SessionUser } from '../context.ts';
import { OBJECT_URL_PREFIX } from '../mutators/statements.ts';
import { restContext } from '../mutators/core.ts';
import { recordUpload } from '../mutators/photos.ts';
import { HttpError } from '../http.ts';
import { isContentAddress, readImageMeta, storeImage, tooLarge, type ImageMeta } from './sniff.ts';

/**
 * The presigned flow of spec 02 section 7 on either store (ADR 024). An upload is accepted in one place:
 * sniffed, sized and stored by content (`storeImage`), then its owner recorded (`recordUpload`). On disk
 * that happens as the PUT reaches the app; with S3 the client PUTs into the bucket directly, and the app
 * claims the bytes the first time the uploader uses the key.
 */
type Deps = Pick<AppDeps, 'database' | 'store' | 'now'>;

/** Stores an upload's bytes and records the user's company as their owner. */
export async function acceptUpload(
  deps: Deps,
  user: SessionUser,
  key: string,
  bytes: Uint8Array,
): Promise<ImageMeta> {
  const meta = await storeImage(deps.store, key, bytes, { companyId: user.companyId, userId: user.id });
  const now = deps.now();
  await deps.database.writeTx(user.companyId, (conn) => recordUpload(restContext(conn, user, now), key));
  return meta;
}

/**
 * Claims bytes PUT straight into the store under `key`, when this user asked for that upload: null when
 * there is nothing to claim (or it is someone else's: another user's, another company's). Bytes over the
 * limit or of another type are refused with the same 413 or 415 as a PUT to the app, and forgotten, as a
 * refused PUT stores nothing.
 */
export async function claimUpload(deps: Deps, user: SessionUser, key: string): Promise<ImageMeta | null> {
  if (isContentAddress(key) || !StorageKey.safeParse(key).success) return null;
  const incoming = await deps.store.incoming(key);
  if (!incoming) return null;
  if (incoming.grant.companyId !== user.companyId || incoming.grant.userId !== user.id) return null;
  const bytes = await incoming.read(MAX_PHOTO_BYTES);
  if (!bytes) return null;
  let meta: ImageMeta;
  try {
    if (bytes.byteLength > MAX_PHOTO_BYTES) throw tooLarge();
    meta = await acceptUpload(deps, user, key, bytes);
  } catch (err) {
    if (err instanceof HttpError) await deps.store.dropIncoming(key);
    throw err;
  }
  await deps.store.dropIncoming(key);
  return meta;
}

/** The sidecar of an upload, claiming the upload first when it is this user's and still unclaimed. */
export async function uploadedImage(deps: Deps, user: SessionUser, key: string): Promise<ImageMeta | null> {
  return (await readImageMeta(deps.store, key)) ?? (await claimUpload(deps, user, key));
}

/** Object keys named by image addresses anywhere in a request body (a log's `images`, a push's mutations). */
export function namedObjectKeys(body: unknown): string[] {
  const keys = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string') {
      if (value.startsWith(OBJECT_URL_PREFIX)) keys.add(value.slice(OBJECT_URL_PREFIX.length));
    } else if (value && typeof value === 'object' && depth < 8) {
      for (const v of Object.values(value)) visit(v, depth + 1);
    }
  };
  visit(body, 0);
  return [...keys];
}

/**
 * Claims this user's unclaimed uploads that a body names, before the mutators (Ops, run inside the write
 * transaction, where the store cannot be awaited) check the keys: a log may name a presigned upload as its
 * first use, on S3 as on disk (where nothing is waiting).
 * A sync push skips refused uploads, so one bad image fails its own mutation (404), not the whole batch.
 */
export async function claimNamedUploads(
  deps: Deps,
  user: SessionUser,
  body: unknown,
  refused: 'throw' | 'skip' = 'throw',
): Promise<void> {
  // A store the app serves itself (disk) receives every upload through the app, which claims it on arrival:
  // nothing ever waits, so a push or log body is not walked for addresses there.
  if (deps.store.origin === null) return;
  const limit = pLimit(8);
  const claim = async (key: string) => {
    try {
      await claimUpload(deps, user, key);
    } catch (err) {
      // Skipped, a refused upload is simply gone: the mutation naming it is then refused on its own.
      if (!(refused === 'skip' && err instanceof HttpError)) throw err;
    }
  };
  await Promise.all(namedObjectKeys(body).map((key) => limit(() => claim(key))));
}
