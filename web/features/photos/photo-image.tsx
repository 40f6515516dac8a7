import { useEffect, useState } from 'react';
import type { SyncDb } from '#sync/db.ts';
import { readBlob } from '#sync/photo-lane.ts';
import { useOptionalSyncDb } from '#web/app/local-data.tsx';
import { cn } from '#web/lib/cn.ts';

/**
 * Shows an image this app serves (`/api/photos/{id}/file` or `/api/objects/image/{key}`, see
 * `LogImageUrl`): `thumb` for grids and cards, `full` for a details view. The image comes from the device
 * when it is there (the thumbnail kept at import, or the photo's bytes), offline too; otherwise from the
 * server; a missing image shows the grey 'Photo' placeholder.
 */
export interface PhotoImageProps {
  src: string;
  alt: string;
  variant: 'thumb' | 'full';
  className?: string;
  /** Said instead of 'Photo' when the image is neither on the device nor reachable (a viewer explains). */
  missingText?: string;
  /** False when the device is offline: with nothing local the server is not even tried. */
  online?: boolean;
}

/** The photo id in `/api/photos/{id}` or `/api/photos/{id}/file`, or null for another address. */
export function photoIdOf(src: string): string | null {
  const match = /^\/api\/photos\/([^/?#]+)(?:\/file)?(?:[?#].*)?$/.exec(src);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * The bytes on this device for a photo: for a thumbnail the kept thumbnail first (small), else the photo's
 * bytes; for a full view the bytes first, else the thumbnail (better than nothing offline), else null.
 */
export async function localImage(
  db: SyncDb,
  photoId: string,
  variant: 'thumb' | 'full',
): Promise<Blob | null> {
  const thumb = async () => {
    const t = await db.thumbnails.get(photoId);
    return t ? new Blob([t.bytes], { type: t.mimeType }) : null;
  };
  const full = async () => {
    const row = await db.photos.get(photoId);
    if (!row?.sha256) return null;
    const blob = await readBlob(db, row.sha256);
    return blob ? new Blob([blob.bytes], { type: blob.mimeType }) : null;
  };
  return variant === 'thumb' ? ((await thumb()) ?? (await full())) : ((await full()) ?? (await thumb()));
}

export function PhotoImage({ src, alt, variant, className, missingText, online = true }: PhotoImageProps) {
  const db = useOptionalSyncDb();
  const photoId = photoIdOf(src);
  // undefined while the device is asked; null: nothing local, use the server's address.
  const [local, setLocal] = useState<string | null | undefined>(db && photoId ? undefined : null);
  const [broken, setBroken] = useState(false);

  useEffect(() => {
    setBroken(false);
    if (!db || !photoId) {
      setLocal(null);
      return;
    }
    let url: string | null = null;
    let cancelled = false;
    setLocal(undefined);
    localImage(db, photoId, variant)
      .then((blob) => {
        if (cancelled) return;
        url = blob ? URL.createObjectURL(blob) : null;
        setLocal(url);
      })
      .catch(() => {
        if (!cancelled) setLocal(null);
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [db, photoId, variant]);

  if (broken || (!src && !local) || (local === null && !online)) {
    return (
      <div
        role="img"
        aria-label={alt}
        className={cn(
          'flex items-center justify-center bg-slate-200 p-4 text-center text-sm text-slate-500',
          className,
        )}
      >
        {missingText ?? 'Photo'}
      </div>
    );
  }
  if (local === undefined) {
    return <div aria-hidden="true" className={cn('animate-pulse bg-slate-100', className)} />;
  }
  return (
    <img
      src={local ?? src}
      alt={alt}
      className={className}
      loading="lazy"
      decoding="async"
      onError={() => setBroken(true)}
    />
  );
}
