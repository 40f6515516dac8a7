import { useLiveQuery } from 'dexie-react-hooks';
import { Camera, ImageIcon } from 'lucide-react';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import type { SyncDb } from '#sync/db.ts';
import { formatDueDate } from '../utils/dates.ts';

export interface GalleryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  db: SyncDb;
  projectId: string;
  projectName: string;
  /** Which tab opens: the Gallery button opens the photos, the upload control the upload tab. */
  initialTab: 'photos' | 'upload';
}

/**
 * The project gallery dialog (spec 02 section 2), as far as this screen goes: the project's photos on the
 * device by description and date. Viewing the images and uploading arrive with the photos screen.
 */
export function GalleryDialog({
  open,
  onOpenChange,
  db,
  projectId,
  projectName,
  initialTab,
}: GalleryDialogProps) {
  const photos = useLiveQuery(
    () => db.photos.where('projectId').equals(projectId).reverse().sortBy('createdAt'),
    [db, projectId],
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`${projectName} Photos`}
        description="Photos of this project"
        hideDescription
        className="max-h-[80vh] max-w-2xl"
      >
        <Tabs defaultValue={initialTab}>
          <TabsList aria-label="Gallery views">
            <TabsTrigger value="photos">View Photos ({photos?.length ?? 0})</TabsTrigger>
            <TabsTrigger value="upload">Upload New</TabsTrigger>
          </TabsList>
          <TabsContent value="photos" className="mt-4">
            {photos === undefined ? (
              <p className="text-sm text-slate-600">Loading photos...</p>
            ) : photos.length === 0 ? (
              <div className="flex flex-col items-center gap-2 py-8 text-center text-slate-600">
                <ImageIcon className="h-10 w-10 text-slate-400" aria-hidden="true" />
                <p className="font-medium text-slate-800">No photos yet</p>
                <p className="text-sm">Photo previews arrive with the Photos screen.</p>
              </div>
            ) : (
              <ul className="grid max-h-[500px] grid-cols-2 gap-3 overflow-y-auto sm:grid-cols-3 lg:grid-cols-4">
                {photos.map((p) => (
                  <li key={p.id} className="rounded-md border border-slate-200 p-3 text-sm">
                    <p className="font-medium text-slate-900">{p.description || 'Project Photo'}</p>
                    <p className="text-slate-600">{formatDueDate(p.createdAt) ?? ''}</p>
                  </li>
                ))}
              </ul>
            )}
          </TabsContent>
          <TabsContent value="upload" className="mt-4">
            <div className="flex flex-col items-center gap-2 py-8 text-center text-slate-600">
              <Camera className="h-10 w-10 text-slate-400" aria-hidden="true" />
              <p className="font-medium text-slate-800">Photo uploads arrive with the Photos screen</p>
              <p className="text-sm">
                Photos you take will be kept on this device and sent when you are online.
              </p>
            </div>
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
