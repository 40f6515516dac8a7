import { useLiveQuery } from '#web/lib/live-query.ts';
import type { SyncDb } from '#sync/db.ts';
import { photoFileUrl } from '../import-photos.ts';
import { PhotoImage } from '../photo-image.tsx';
import { PhotoStatus } from './photo-status.tsx';

/** A photo whose bytes the server refused, in Sync issues: which photo it is, with Retry and Remove. */
export function RefusedPhoto({ db, sha256 }: { db: SyncDb; sha256: string }) {
  const photo = useLiveQuery(() => db.photos.where('sha256').equals(sha256).first(), [db, sha256]);
  const issue = useLiveQuery(
    () =>
      db.syncIssues
        .where('kind')
        .equals('blob')
        .filter((i) => i.sha256 === sha256)
        .first(),
    [db, sha256],
  );
  const name = photo
    ? photo.originalName || photo.description || 'Project Photo'
    : 'A photo no longer on this device';
  return (
    <div className="mt-2 flex items-start gap-3">
      {photo && (
        <PhotoImage
          src={photoFileUrl(photo.id)}
          alt={name}
          variant="thumb"
          className="h-14 w-14 shrink-0 rounded object-cover"
        />
      )}
      <div className="flex min-w-0 flex-col gap-1">
        <p className="truncate text-sm text-slate-800">{name}</p>
        <PhotoStatus
          db={db}
          state={{ kind: 'refused', sha256, reason: issue?.message ?? 'The server refused this photo' }}
        />
      </div>
    </div>
  );
}
