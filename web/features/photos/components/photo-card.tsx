import { Eye, Trash2 } from 'lucide-react';
import type { PhotoRow, SyncDb } from '#sync/db.ts';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { photoFileUrl } from '../import-photos.ts';
import { PhotoImage } from '../photo-image.tsx';
import type { PhotoState } from '../photo-state.ts';
import { CARD_TAGS_SHOWN } from '../utils/filter-photos.ts';
import { formatPhotoDate } from '../utils/dates.ts';
import { PhotoStatus } from './photo-status.tsx';

export interface PhotoCardProps {
  db: SyncDb;
  photo: PhotoRow;
  projectName: string;
  state: PhotoState;
  layout: 'grid' | 'list';
  timeZone: string;
  canDelete: boolean;
  onTag: (tag: string) => void;
  onView: () => void;
  onDelete: () => void;
}

/** A photo on the gallery (spec 02 section 2): image, description, project, date, tags, View and Delete. */
export function PhotoCard({
  db,
  photo,
  projectName,
  state,
  layout,
  timeZone,
  canDelete,
  onTag,
  onView,
  onDelete,
}: PhotoCardProps) {
  const description = photo.description || 'Project Photo';
  const tags = photo.tags ?? [];
  const extra = tags.length - CARD_TAGS_SHOWN;
  const date = formatPhotoDate(photo.createdAt ?? photo.capturedAt, timeZone);
  return (
    <li
      className={cn(
        'overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm',
        layout === 'list' && 'flex gap-3',
      )}
      aria-label={description}
    >
      <PhotoImage
        src={photoFileUrl(photo.id)}
        alt={description}
        variant="thumb"
        className={cn(
          'object-cover',
          layout === 'grid' ? 'aspect-[4/3] w-full' : 'h-28 w-28 shrink-0 sm:h-32 sm:w-32',
        )}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5 p-3">
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 font-medium wrap-anywhere text-slate-900">{description}</h3>
          <UnsentMarker rowId={photo.id} />
        </div>
        <p className="text-sm wrap-anywhere text-slate-600">{projectName}</p>
        {date && <p className="text-xs text-slate-500">{date}</p>}
        {tags.length > 0 && (
          <ul className="flex flex-wrap gap-1" aria-label="Tags">
            {tags.slice(0, CARD_TAGS_SHOWN).map((tag) => (
              <li key={tag} className="max-w-full">
                {/* No wider than the card: with large text a long tag wraps instead of being cut by its edge. */}
                <button
                  type="button"
                  onClick={() => onTag(tag)}
                  className="max-w-full min-h-11 wrap-anywhere rounded-full bg-slate-100 px-3 py-1 md:min-h-8 text-xs text-slate-700 hover:bg-teal-50 hover:text-teal-800 focus-visible:outline-2 focus-visible:outline-teal-600"
                  aria-label={`Show photos tagged ${tag}`}
                >
                  {tag}
                </button>
              </li>
            ))}
            {extra > 0 && (
              <li className="rounded-full bg-slate-100 px-2.5 py-1 text-xs text-slate-600">+{extra}</li>
            )}
          </ul>
        )}
        <PhotoStatus db={db} state={state} />
        <div className="mt-auto flex gap-2 pt-1">
          <Button size="sm" variant="outline" onClick={onView} aria-label={`View ${description}`}>
            <Eye className="h-4 w-4" aria-hidden="true" />
            View
          </Button>
          {canDelete && (
            <Button size="sm" variant="ghost" onClick={onDelete} aria-label={`Delete ${description}`}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Delete
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}
