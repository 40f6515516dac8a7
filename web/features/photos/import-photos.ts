import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { addPhoto, newRowId, type NewPhoto } from '#sync/mutate.ts';
import { compressPhoto } from './pipeline/compress-client.ts';
import { MAX_PHOTO_FILE_BYTES, MAX_PHOTOS_PER_BATCH } from './pipeline/limits.ts';

/**
 * The one way a screen turns picked files into photos (the gallery, the upload dialog, a log's photos):
 * checks them (images only, 10 MB each before compression, at most `MAX_PHOTOS_PER_BATCH`), compresses
 * them on the device, keeps a thumbnail, and stores each through `addPhoto` so it syncs on the photo lane
 * (a log's photos: `preparePhotos`, stored with the log by `addPhotos`).
 */
export interface ImportPhotosInput {
  projectId: string;
  description?: string | null;
  tags?: string[];
}

export interface ImportPhotosOptions {
  /** Called as each file is done: how many of how many. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Some files could not become photos. The others were stored: `rows` holds them, `failures` names the rest
 * with the reason. Also thrown, with nothing stored, for a batch that breaks the rules before any work.
 */
export class PhotoImportError extends Error {
  override name = 'PhotoImportError';
  constructor(
    message: string,
    readonly rows: PhotoRow[],
    readonly failures: { name: string; message: string }[],
  ) {
    super(message);
  }
}

export { MAX_PHOTOS_PER_BATCH };

/** A batch with a non-image, a file over 10 MB or more than 10 files is refused whole, before any work. */
function checkBatch(files: readonly File[]): void {
  const invalid = files.find((f) => !f.type.startsWith('image/') || f.size > MAX_PHOTO_FILE_BYTES);
  if (files.length > MAX_PHOTOS_PER_BATCH)
    throw new PhotoImportError(`Up to ${MAX_PHOTOS_PER_BATCH} photos at a time`, [], []);
  if (invalid)
    throw new PhotoImportError(
      invalid.type.startsWith('image/') ? `${invalid.name} is over 10MB` : `${invalid.name} is not an image`,
      [],
      [],
    );
}

/**
 * Compresses each file in a worker (DESIGN.md section 7: 2560 px, at most 1 MB, no EXIF, checked before the
 * original is let go), keeping its thumbnail, capture time and file name; `each` takes every photo as soon
 * as it is done. Returns the files that failed, with the reason.
 */
async function compressEach(
  files: readonly File[],
  input: ImportPhotosInput,
  options: ImportPhotosOptions,
  each: (photo: NewPhoto) => Promise<void>,
): Promise<{ name: string; message: string }[]> {
  const failures: { name: string; message: string }[] = [];
  let done = 0;
  for (const file of files) {
    try {
      const out = await compressPhoto(file);
      await each({
        projectId: input.projectId,
        bytes: out.image,
        mimeType: 'image/jpeg',
        originalName: file.name,
        description: input.description ?? null,
        tags: input.tags ?? [],
        capturedAt: out.capturedAt,
        thumbnail: out.thumbnail,
      });
    } catch (err) {
      failures.push({ name: file.name, message: err instanceof Error ? err.message : String(err) });
    }
    done += 1;
    options.onProgress?.(done, files.length);
  }
  return failures;
}

const listOf = (failures: { name: string; message: string }[]) =>
  failures.map((f) => `${f.name}: ${f.message}`).join('; ');

/**
 * The gallery's import: each file is compressed and stored with `addPhoto` as soon as it is done, so a
 * gallery shows the first while the last is still compressing. Pick files through `selectPhotoFiles` first.
 * Throws `PhotoImportError` naming the files that failed, with the others already stored.
 */
export async function importPhotos(
  db: SyncDb,
  files: readonly File[],
  input: ImportPhotosInput,
  options: ImportPhotosOptions = {},
): Promise<PhotoRow[]> {
  checkBatch(files);
  const rows: PhotoRow[] = [];
  const failures = await compressEach(files, input, options, async (photo) => {
    rows.push(await addPhoto(db, photo));
  });
  if (failures.length > 0)
    throw new PhotoImportError(`Upload failed for ${listOf(failures)}`, rows, failures);
  return rows;
}

/**
 * A log's photos, all or nothing: every file is compressed and given its row id, and NONE is stored; the
 * caller stores them with the log that names them in one transaction (`addPhotos` with the log's write).
 * When a file fails, nothing is returned: the error names it.
 */
export async function preparePhotos(
  files: readonly File[],
  input: ImportPhotosInput,
  options: ImportPhotosOptions = {},
): Promise<PreparedPhoto[]> {
  checkBatch(files);
  const ready: PreparedPhoto[] = [];
  const failures = await compressEach(files, input, options, async (photo) => {
    ready.push({ ...photo, id: newRowId() });
  });
  if (failures.length > 0) {
    const them = failures.length === 1 ? 'it' : 'them';
    throw new PhotoImportError(
      `Nothing was saved. ${listOf(failures)}. Remove ${them} and save again.`,
      [],
      failures,
    );
  }
  return ready;
}

/** A compressed photo ready to store, with the row id its log names it by. */
export type PreparedPhoto = NewPhoto & { id: string };

/** The address a log stores for one of its photos. */
export { photoFileUrl } from '#shared/schemas/photo.ts';
