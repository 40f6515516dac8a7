import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { addPhoto } from '#sync/mutate.ts';

/**
 * The one way a screen turns picked files into photos (the gallery, the upload dialog, a log's photos):
 * checks them (images only, 10 MB each before compression, at most `MAX_PHOTOS_PER_BATCH`), compresses
 * them on the device, keeps a thumbnail, and stores each through `addPhoto` so it syncs on the photo lane.
 *
 * STUB: the photo pipeline (issue 11) replaces this body (compression in a worker, thumbnails, EXIF
 * location stripped, capture time kept); the signature is the contract other screens use.
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

export async function importPhotos(
  db: SyncDb,
  files: readonly File[],
  input: ImportPhotosInput,
  options: ImportPhotosOptions = {},
): Promise<PhotoRow[]> {
  const rows: PhotoRow[] = [];
  for (const file of files) {
    rows.push(
      await addPhoto(db, {
        projectId: input.projectId,
        bytes: file,
        mimeType: file.type,
        originalName: file.name,
        description: input.description ?? null,
        tags: input.tags ?? [],
      }),
    );
    options.onProgress?.(rows.length, files.length);
  }
  return rows;
}

/** The address a log stores for one of its photos (`LogImageUrl` in shared/schemas/log.ts). */
export function photoFileUrl(photoId: string): string {
  return `/api/photos/${photoId}/file`;
}
