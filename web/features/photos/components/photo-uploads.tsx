import { useLiveQuery } from '#web/lib/live-query.ts';
import { useOptionalSyncDb } from '#web/app/local-data.tsx';
import type { SyncDb } from '#sync/db.ts';
import { photoFileUrl } from '../import-photos.ts';
import { PhotoImage } from '../photo-image.tsx';
import { photoState, photoStateText, useBlobStates } from '../photo-state.ts';

/** How many waiting photos the sync status names; the rest are counted. */
const SHOWN = 5;

function Uploads({ db }: { db: SyncDb }) {
  const states = useBlobStates(db);
  const shas = [...states.pending, ...states.refused.keys()];
  const photos = useLiveQuery(
    () => (shas.length ? db.photos.where('sha256').anyOf(shas).toArray() : []),
    [db, shas.join(',')],
  );
  if (!photos || photos.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <ul aria-label="Photos waiting to upload" className="flex flex-col gap-1.5">
        {photos.slice(0, SHOWN).map((p) => {
          const state = photoState(p, states);
          return (
            <li key={p.id} className="flex items-center gap-2">
              <PhotoImage
                src={photoFileUrl(p.id)}
                alt={p.description || p.originalName || 'Project Photo'}
                variant="thumb"
                className="h-8 w-8 shrink-0 rounded object-cover"
              />
              <span className="min-w-0 flex-1 truncate text-slate-700">
                {p.originalName || p.description || 'Project Photo'}
              </span>
              <span
                className={state.kind === 'refused' ? 'text-red-700' : 'text-slate-600'}
                data-photo-state={state.kind}
              >
                {state.kind === 'refused' ? 'Refused' : photoStateText(state)}
              </span>
            </li>
          );
        })}
      </ul>
      {photos.length > SHOWN && <p className="text-xs text-slate-500">and {photos.length - SHOWN} more</p>}
    </div>
  );
}

/**
 * The photos of this device not on the server yet, each with its state (on this device, uploading with
 * the percent sent, refused), for the sync status. Renders nothing outside the signed-in app.
 */
export function PhotoUploads() {
  const db = useOptionalSyncDb();
  return db ? <Uploads db={db} /> : null;
}
