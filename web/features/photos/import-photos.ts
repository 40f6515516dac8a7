import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { addPhoto, addPhotos, type NewPhoto } from '#sync/mutate.ts';
import { compressPhoto } from './pipeline/compress-client.ts';
import { MAX_PHOTO_FILE_BYTES, MAX_PHOTOS_PER_BATCH } from './pipeline/limits.ts';

/**
 * The one way a screen turns picked files into photos (the gallery, the upload dialog, a log's photos):
 * checks them (images only, 10 MB each before compression, at most `MAX_PHOTOS_PER_BATCH`), compresses
 * them on the device, keeps a thumbnail, and stores each through `addPhoto` so it syncs on the photo lane.
 */
export interface ImportPhotosInput {
  projectId: string;
  description?: string | null;
  tags?: string[];
}

export interface ImportPhotosOptions {
  /** Called as each file is done: how many of how many. */
  onProgress?: (done: number, total: number) => void;
  /**
   * All or nothing (a log's photos): every file is compressed before any is stored, none is stored when one
   * fails (the error names it, and a second try does not store the others twice), and all are stored in
   * one transaction, so closing the app mid-save leaves no photo without its log.
   */
  whole?: boolean;
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

/**
 * Compresses each file in a worker (DESIGN.md section 7: 2560 px, at most 1 MB, no EXIF, checked before the
 * original is let go), keeping its thumbnail, capture time and file name, and stores it with `addPhoto`.
 * Files go one at a time, each stored as soon as it is done, so a gallery shows the first while the last is
 * still compressing. Pick files through `selectPhotoFiles` first: a batch with a non-image, a file over
 * 10 MB or more than 10 files is refused whole.
 */
export async function importPhotos(
  db: SyncDb,
  files: readonly File[],
  input: ImportPhotosInput,
  options: ImportPhotosOptions = {},
): Promise<PhotoRow[]> {
  const invalid = files.find((f) => !f.type.startsWith('image/') || f.size > MAX_PHOTO_FILE_BYTES);
  if (files.length > MAX_PHOTOS_PER_BATCH)
    throw new PhotoImportError(`Up to ${MAX_PHOTOS_PER_BATCH} photos at a time`, [], []);
  if (invalid)
    throw new PhotoImportError(
      invalid.type.startsWith('image/') ? `${invalid.name} is over 10MB` : `${invalid.name} is not an image`,
      [],
      [],
    );
  const rows: PhotoRow[] = [];
  const ready: NewPhoto[] = [];
  const failures: { name: string; message: string }[] = [];
  for (const file of files) {
    try {
      const out = await compressPhoto(file);
      const photo: NewPhoto = {
        projectId: input.projectId,
        bytes: out.image,
        mimeType: 'image/jpeg',
        originalName: file.name,
        description: input.description ?? null,
        tags: input.tags ?? [],
        capturedAt: out.capturedAt,
        thumbnail: out.thumbnail,
      };
      if (options.whole) ready.push(photo);
      else rows.push(await addPhoto(db, photo));
    } catch (err) {
      failures.push({ name: file.name, message: err instanceof Error ? err.message : String(err) });
    }
    options.onProgress?.(rows.length + ready.length + failures.length, files.length);
  }
  if (failures.length > 0) {
    const list = failures.map((f) => `${f.name}: ${f.message}`).join('; ');
    throw new PhotoImportError(
      options.whole
        ? `Nothing was saved. ${list}. Remove ${failures.length === 1 ? 'it' : 'them'} and save again.`
        : `Upload failed for ${list}`,
      rows,
      failures,
    );
  }
  return options.whole ? addPhotos(db, ready) : rows;
}

/** The address a log stores for one of its photos. */
export { photoFileUrl } from '#shared/schemas/photo.ts';
