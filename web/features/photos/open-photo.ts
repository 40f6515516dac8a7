import type { SyncDb } from '#sync/db.ts';
import { toast } from '#web/components/ui/use-toast.ts';
import { localImage } from './photo-image.tsx';
import { photoFileUrl } from './import-photos.ts';

/**
 * View: the full image in a new tab, from the device's bytes when it has them (offline too), else from
 * the server. The tab is opened at once (a popup blocker allows it only within the click) and pointed at
 * the image when it is ready.
 */
export async function openPhoto(db: SyncDb, photoId: string): Promise<void> {
  const tab = window.open('', '_blank');
  const blob = await localImage(db, photoId, 'full').catch(() => null);
  if (!blob && !navigator.onLine) {
    // The server's address would only show the browser's offline error page.
    tab?.close();
    toast({
      title: 'Photo not on this device',
      description: 'Its full image is on the server: it opens when you are online.',
    });
    return;
  }
  const url = blob ? URL.createObjectURL(blob) : photoFileUrl(photoId);
  if (tab) tab.location.href = url;
  else window.open(url, '_blank', 'noopener');
  // The new tab has loaded the blob long before this; keep memory from growing over a long session.
  if (blob) setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
