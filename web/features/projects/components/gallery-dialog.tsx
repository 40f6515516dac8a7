import { useLiveQuery } from '#web/lib/live-query.ts';
import { Camera, ImageIcon, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { importPhotos, photoFileUrl } from '#web/features/photos/import-photos.ts';
import { PhotoImage } from '#web/features/photos/photo-image.tsx';
import { usePhotosSavedToast } from '#web/features/photos/photos-saved-toast.ts';
import { photoState, photoStateText, useBlobStates } from '#web/features/photos/photo-state.ts';
import { PhotoPicker } from '#web/features/photos/components/photo-picker.tsx';
import { PhotoStatus } from '#web/features/photos/components/photo-status.tsx';
import { newestFirst } from '#web/features/photos/utils/filter-photos.ts';
import { formatPhotoDate } from '#web/features/photos/utils/dates.ts';

export interface GalleryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  db: SyncDb;
  projectId: string;
  projectName: string;
  /** Which tab opens: the Gallery button opens the photos, the upload control the upload tab. */
  initialTab: 'photos' | 'upload';
  /** The company's time zone, for upload dates (UTC when omitted). */
  timeZone?: string;
  /** Whether the user holds a permission (photos:create, photos:delete); everything when omitted. */
  can?: (permission: string) => boolean;
}

const allowAll = () => true;

type Tab = 'photos' | 'upload';

/**
 * The project gallery dialog (spec 02 section 2): the project's photos as thumbnails from the device
 * (offline too), Photo Details, delete, and the Upload New view, which compresses the photo on the device
 * and returns to the grid.
 */
export function GalleryDialog({
  open,
  onOpenChange,
  db,
  projectId,
  projectName,
  initialTab,
  timeZone = 'UTC',
  can = allowAll,
}: GalleryDialogProps) {
  const canUpload = can('photos:create');
  const [tab, setTab] = useState<Tab>(canUpload ? initialTab : 'photos');
  const [details, setDetails] = useState<PhotoRow | null>(null);
  const [deleting, setDeleting] = useState<PhotoRow | null>(null);
  const states = useBlobStates(db);
  const savedToast = useSavedToast(db);
  const photos = useLiveQuery(
    async () => (await db.photos.where('projectId').equals(projectId).toArray()).sort(newestFirst),
    [db, projectId],
  );
  useEffect(() => setTab(canUpload ? initialTab : 'photos'), [initialTab, canUpload]);

  const remove = async (photo: PhotoRow) => {
    try {
      await mutate(db, 'photos', 'delete', photo.id);
      void savedToast(photo.id, { title: 'Photo deleted successfully' });
      if (details?.id === photo.id) setDetails(null);
    } catch {
      toast({ title: 'Failed to delete photo', variant: 'destructive' });
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`${projectName} Photos`}
        description="Photos of this project"
        hideDescription
        className="flex max-w-2xl flex-col"
      >
        <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="flex min-h-0 flex-col">
          <TabsList aria-label="Gallery views" className="self-start">
            <TabsTrigger value="photos">View Photos ({photos?.length ?? 0})</TabsTrigger>
            {canUpload && <TabsTrigger value="upload">Upload New</TabsTrigger>}
          </TabsList>
          <TabsContent value="photos" className="mt-4 min-h-0">
            {photos === undefined ? (
              <p className="text-sm text-slate-600">Loading photos...</p>
            ) : photos.length === 0 ? (
              <div className="flex flex-col items-center gap-3 py-8 text-center text-slate-600">
                <ImageIcon className="h-10 w-10 text-slate-400" aria-hidden="true" />
                <p className="font-medium text-slate-800">No photos yet</p>
                {canUpload && (
                  <Button onClick={() => setTab('upload')}>
                    <Camera className="h-4 w-4" aria-hidden="true" />
                    Upload First Photo
                  </Button>
                )}
              </div>
            ) : (
              <ul
                aria-label="Project photos"
                className="grid max-h-[500px] grid-cols-2 gap-3 overflow-y-auto sm:grid-cols-3 lg:grid-cols-4"
              >
                {photos.map((p) => {
                  const label = p.description || 'Project Photo';
                  const state = photoState(p, states);
                  return (
                    <li key={p.id} className="group relative">
                      <button
                        type="button"
                        onClick={() => setDetails(p)}
                        className="block w-full overflow-hidden rounded-md focus-visible:outline-2 focus-visible:outline-teal-600"
                        aria-label={`Open ${label}`}
                      >
                        <PhotoImage
                          src={photoFileUrl(p.id)}
                          alt={label}
                          variant="thumb"
                          className="aspect-square w-full object-cover"
                        />
                      </button>
                      {state.kind !== 'uploaded' && (
                        <span
                          className="pointer-events-none absolute bottom-1 left-1 max-w-[calc(100%-0.5rem)] truncate rounded bg-slate-900/70 px-1.5 py-0.5 text-xs text-white"
                          data-photo-state={state.kind}
                        >
                          {photoStateText(state)}
                        </span>
                      )}
                      {can('photos:delete') && (
                        <Button
                          size="icon"
                          variant="destructive"
                          className="absolute top-1 right-1 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100"
                          onClick={() => setDeleting(p)}
                          aria-label={`Delete ${label}`}
                        >
                          <Trash2 className="h-4 w-4" aria-hidden="true" />
                        </Button>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </TabsContent>
          {canUpload && (
            <TabsContent value="upload" className="mt-4">
              <UploadNew db={db} projectId={projectId} onDone={() => setTab('photos')} />
            </TabsContent>
          )}
        </Tabs>
      </DialogContent>
      {details && (
        <Dialog open onOpenChange={(o) => !o && setDetails(null)}>
          <DialogContent
            title="Photo Details"
            description={details.description || 'Project Photo'}
            hideDescription
            className="max-w-3xl"
          >
            <PhotoImage
              src={photoFileUrl(details.id)}
              alt={details.description || 'Project Photo'}
              variant="full"
              className="max-h-[60vh] w-full rounded-md object-contain"
            />
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-500">Description</dt>
              <dd className="wrap-anywhere text-slate-900">{details.description || 'Project Photo'}</dd>
              <dt className="text-slate-500">Uploaded</dt>
              <dd className="text-slate-900">
                {formatPhotoDate(details.createdAt, timeZone) || 'Not yet uploaded'}
              </dd>
              {details.capturedAt && (
                <>
                  <dt className="text-slate-500">Taken</dt>
                  <dd className="text-slate-900">{formatPhotoDate(details.capturedAt, timeZone)}</dd>
                </>
              )}
            </dl>
            <PhotoStatus db={db} state={photoState(details, states)} />
          </DialogContent>
        </Dialog>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete this photo?"
        description={`"${deleting?.description || 'Project Photo'}" will be deleted for everyone. This cannot be undone.`}
        confirmLabel="Delete"
        variant="destructive"
        onConfirm={() => {
          if (deleting) void remove(deleting);
          setDeleting(null);
        }}
      />
    </Dialog>
  );
}

/** Upload New (spec 02 sections 2 and 5): one image, an optional description ('Uploaded {filename}'). */
function UploadNew({ db, projectId, onDone }: { db: SyncDb; projectId: string; onDone: () => void }) {
  const photosSaved = usePhotosSavedToast(db);
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const reset = () => {
    setFile(null);
    setDescription('');
  };
  const pick = (files: File[]) => {
    const image = files.find((f) => f.type.startsWith('image/'));
    if (!image) {
      toast({ title: 'Error', description: 'Please select an image file', variant: 'destructive' });
      return;
    }
    setFile(image);
    setDescription(`Uploaded ${image.name}`);
  };
  const upload = async () => {
    if (!file) {
      toast({ title: 'Error', description: 'Please select at least one file', variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const rows = await importPhotos(db, [file], { projectId, description: description.trim() || null });
      void photosSaved(rows, { title: 'Success', description: 'Photo uploaded successfully' });
      reset();
      onDone();
    } catch (err) {
      toast({
        title: 'Error',
        description: `Failed to upload photo. Please try again.${err instanceof Error && err.message ? ` (${err.message})` : ''}`,
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void upload();
      }}
    >
      {file && preview ? (
        <div className="flex items-center gap-3 rounded-lg border border-slate-200 p-3">
          <img src={preview} alt={file.name} className="h-20 w-20 rounded object-cover" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900">{file.name}</p>
            <Button type="button" size="sm" variant="ghost" onClick={() => setFile(null)} disabled={busy}>
              Choose another
            </Button>
          </div>
        </div>
      ) : (
        <PhotoPicker
          multiple={false}
          onFiles={pick}
          hint="Images only, max 10MB"
          buttonLabel="Choose File"
          disabled={busy}
        />
      )}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-description`}>Description (optional)</Label>
        <Input
          id={`${id}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          disabled={busy}
          maxLength={2000}
        />
      </div>
      {busy && (
        <p role="status" className="text-sm text-slate-600">
          Preparing the photo on this device...
        </p>
      )}
      <DialogFooter>
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={() => {
            reset();
            onDone();
          }}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          Upload Photos
        </Button>
      </DialogFooter>
    </form>
  );
}
