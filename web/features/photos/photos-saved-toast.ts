import { useCallback } from 'react';
import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { useSavedToast } from '#web/app/saved-toast.ts';
import type { ToastInput } from '#web/components/ui/use-toast.ts';

/** The description of the "Saved on this device, will sync" toast after photos were stored. */
export function photosWaitingText(count: number): string {
  return count === 1 ? '1 photo waiting to upload' : `${count} photos waiting to upload`;
}

/**
 * The toast after photos were stored on this device, for every screen that takes photos (Upload Photos,
 * the project gallery's Upload New): the screen's own "uploaded" message once the server has the photos
 * and their bytes; until then "Saved on this device, will sync" and how many photos wait to upload, never
 * "uploaded successfully" for a photo that has not left the phone.
 */
export function usePhotosSavedToast(
  db: SyncDb,
): (rows: readonly PhotoRow[], uploaded: ToastInput) => Promise<void> {
  const savedToast = useSavedToast(db);
  return useCallback(
    (rows, uploaded) =>
      savedToast(
        rows.map((r) => r.id),
        uploaded,
        {
          blobs: rows.flatMap((r) => (r.sha256 ? [r.sha256] : [])),
          whileWaiting: photosWaitingText(rows.length),
        },
      ),
    [savedToast],
  );
}
