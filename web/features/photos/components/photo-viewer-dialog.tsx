import { ExternalLink } from 'lucide-react';
import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { useBrowserOnline } from '#web/lib/use-online.ts';
import { photoFileUrl } from '../import-photos.ts';
import { openPhoto } from '../open-photo.ts';
import { PhotoImage } from '../photo-image.tsx';

export const NOT_ON_DEVICE_TEXT =
  'This photo is not on this device yet. It will show when you are back online.';

/**
 * View: the photo inside the app, from the device's bytes when it has them. A new tab is no viewer on a
 * phone: an installed app opens it in the browser, which offline shows its own no-internet page. Offline
 * with nothing on the device, the dialog says so instead of showing a broken image.
 */
export function PhotoViewerDialog({
  db,
  photo,
  subtitle,
  onClose,
}: {
  db: SyncDb;
  photo: PhotoRow | null;
  /** Project and date, under the title. */
  subtitle: string;
  onClose: () => void;
}) {
  const online = useBrowserOnline();
  const description = photo?.description || 'Project Photo';
  return (
    <Dialog open={photo !== null} onOpenChange={(open) => !open && onClose()}>
      {photo && (
        <DialogContent title={description} description={subtitle} className="max-w-4xl">
          <PhotoImage
            src={photoFileUrl(photo.id)}
            alt={description}
            variant="full"
            online={online}
            missingText={NOT_ON_DEVICE_TEXT}
            className="max-h-[70vh] min-h-48 w-full rounded-md object-contain"
          />
          <DialogFooter>
            {online && (
              <Button variant="outline" onClick={() => void openPhoto(db, photo.id)}>
                <ExternalLink className="h-4 w-4" aria-hidden="true" />
                Open full size
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
