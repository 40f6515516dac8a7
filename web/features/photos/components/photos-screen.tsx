import { useLiveQuery } from '#web/lib/live-query.ts';
import { ImageIcon, LayoutGrid, List, Upload } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DEFAULT_TIME_ZONE } from '#shared/rules/dates.ts';
import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { mutate } from '#sync/mutate.ts';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ViewToggle } from '#web/components/ui/toggle-group.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { cn } from '#web/lib/cn.ts';
import { photoState, useBlobStates } from '../photo-state.ts';
import { formatPhotoDate } from '../utils/dates.ts';
import {
  countText,
  filterActive,
  filterPhotos,
  logsWithImages,
  newestFirst,
  NO_FILTER,
  projectNames,
  tagCounts,
  type PhotoFilter,
} from '../utils/filter-photos.ts';
import { PhotoCard } from './photo-card.tsx';
import { PhotoFilters } from './photo-filters.tsx';
import { PhotoViewerDialog } from './photo-viewer-dialog.tsx';
import { UploadPhotosDialog } from './upload-photos-dialog.tsx';

const VIEW_CHOICES = [
  { value: 'grid', label: 'Grid', icon: LayoutGrid },
  { value: 'list', label: 'List', icon: List },
] as const;

/** Cards drawn at first and per "Show more": a phone stays quick with a company's thousands of photos. */
const PAGE = 60;

export interface PhotosScreenProps {
  db: SyncDb;
  /** Whether the user holds a permission; everything is allowed when omitted. */
  can?: (permission: string) => boolean;
  timeZone?: string;
}

const allowAll = () => true;

/** The Photo Gallery (spec 02 section 2) on the device's mirror: works offline, images from the device. */
export function PhotosScreen({ db, can = allowAll, timeZone = DEFAULT_TIME_ZONE }: PhotosScreenProps) {
  // Photo rows are small (the bytes live in `blobs`); search, tag counts and the log filter need them all.
  const savedToast = useSavedToast(db);
  const photos = useLiveQuery(async () => (await db.photos.toArray()).sort(newestFirst), [db]);
  const projects = useLiveQuery(() => db.projects.orderBy('id').toArray(), [db]);
  // Logs made on this device have no createdAt until the server answers: not through that index.
  const logs = useLiveQuery(
    async () =>
      (await db.project_logs.toArray()).sort((a, b) =>
        (b.createdAt ?? '\uffff').localeCompare(a.createdAt ?? '\uffff'),
      ),
    [db],
  );
  const states = useBlobStates(db);
  const [filter, setFilter] = useState<PhotoFilter>(NO_FILTER);
  const [layout, setLayout] = useState<'grid' | 'list'>('grid');
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<PhotoRow | null>(null);
  const [viewing, setViewing] = useState<PhotoRow | null>(null);
  const [shown, setShown] = useState(PAGE);

  const sortedProjects = useMemo(
    () => [...(projects ?? [])].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '')),
    [projects],
  );
  const names = useMemo(() => projectNames(projects), [projects]);
  const imageLogs = useMemo(() => logsWithImages(logs ?? []), [logs]);
  const tags = useMemo(() => tagCounts(photos ?? []), [photos]);
  const visible = useMemo(() => filterPhotos(photos ?? [], filter, logs ?? []), [photos, filter, logs]);

  const total = photos?.length ?? 0;
  const count = countText(visible.length, total, filter, {
    project: names.get(filter.projectId),
    log: imageLogs.find((l) => l.id === filter.logId)?.title ?? undefined,
  });

  const remove = async (photo: PhotoRow) => {
    try {
      await mutate(db, 'photos', 'delete', photo.id);
      void savedToast(photo.id, { title: 'Photo deleted successfully' });
    } catch {
      toast({ title: 'Failed to delete photo', variant: 'destructive' });
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-[1440px] flex-col gap-4 p-4 md:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Photo Gallery</h1>
          <p className="text-sm text-slate-600" aria-live="polite" data-testid="photo-count">
            {photos === undefined ? 'Loading photos...' : count}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <ViewToggle choices={VIEW_CHOICES} value={layout} onChange={setLayout} compact />
          {can('photos:create') && (
            <Button onClick={() => setUploading(true)}>
              <Upload className="h-4 w-4" aria-hidden="true" />
              Upload Photos
            </Button>
          )}
        </div>
      </div>

      <PhotoFilters
        filter={filter}
        onChange={(f) => {
          setFilter(f);
          setShown(PAGE);
        }}
        projects={sortedProjects}
        tags={tags}
        logs={imageLogs}
      />

      {photos === undefined ? (
        <p className="text-sm text-slate-600">Loading photos...</p>
      ) : visible.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 py-12 text-center">
          <ImageIcon className="h-12 w-12 text-slate-400" aria-hidden="true" />
          <p className="font-medium text-slate-900">No photos found</p>
          <p className="text-sm text-slate-600">
            {filterActive(filter)
              ? 'Try adjusting your filters or search terms'
              : 'Upload your first photos to get started'}
          </p>
        </div>
      ) : (
        <>
          <ul
            aria-label="Photos"
            className={cn(
              layout === 'grid'
                ? 'grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4'
                : 'flex flex-col gap-3',
            )}
          >
            {visible.slice(0, shown).map((photo) => (
              <PhotoCard
                key={photo.id}
                db={db}
                photo={photo}
                projectName={names.get(photo.projectId ?? '') ?? 'Unknown Project'}
                state={photoState(photo, states)}
                layout={layout}
                timeZone={timeZone}
                canDelete={can('photos:delete')}
                onTag={(tag) => {
                  setFilter({ ...filter, tab: 'tag', tag });
                  setShown(PAGE);
                }}
                onView={() => setViewing(photo)}
                onDelete={() => setDeleting(photo)}
              />
            ))}
          </ul>
          {visible.length > shown && (
            <Button variant="outline" className="self-center" onClick={() => setShown((n) => n + PAGE)}>
              Show more ({visible.length - shown} more)
            </Button>
          )}
        </>
      )}

      {uploading && (
        <UploadPhotosDialog
          open
          onOpenChange={setUploading}
          db={db}
          projects={sortedProjects}
          initialProjectId={
            filter.tab === 'project' && filter.projectId !== 'all' ? filter.projectId : undefined
          }
        />
      )}
      <PhotoViewerDialog
        db={db}
        photo={viewing}
        subtitle={
          viewing
            ? `${names.get(viewing.projectId ?? '') ?? 'Unknown Project'} · ${formatPhotoDate(viewing.createdAt ?? viewing.capturedAt, timeZone)}`
            : ''
        }
        onClose={() => setViewing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this photo?"
        description={`"${deleting?.description || 'Project Photo'}" will be deleted for everyone. This cannot be undone.`}
        confirmLabel="Delete"
        variant="destructive"
        onConfirm={() => {
          if (deleting) void remove(deleting);
          setDeleting(null);
        }}
      />
    </div>
  );
}
