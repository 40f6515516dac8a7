import { useMemo } from 'react';
import {
  AlertTriangle,
  FileText,
  Flag,
  HardHat,
  History,
  Pencil,
  Trash2,
  type LucideIcon,
} from 'lucide-react';
import { nextLogStatus } from '#shared/rules/log-filters.ts';
import type { ProjectLogRow } from '#sync/db.ts';
import { useOptionalSyncDb } from '#web/app/local-data.tsx';
import { UnsentMarker } from '#web/app/unsent-marker.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { openPhoto } from '#web/features/photos/open-photo.ts';
import { PhotoImage, photoIdOf } from '#web/features/photos/photo-image.tsx';
import {
  LOG_STATUS_BADGES,
  LOG_STATUS_LABELS,
  LOG_TYPE_BADGES,
  LOG_TYPE_LABELS,
  labelOf,
} from '../utils/labels.ts';
import type { LogStatus, LogType } from '../utils/log-form.ts';

const TYPE_ICONS: Record<LogType, LucideIcon> = {
  general: FileText,
  issue: AlertTriangle,
  milestone: Flag,
  safety: HardHat,
};

export interface LogCardProps {
  log: ProjectLogRow;
  projectName: string | undefined;
  /** Renders the created date in the company's zone. */
  formatDate: (iso: string | null | undefined) => string;
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (log: ProjectLogRow) => void;
  onDelete: (log: ProjectLogRow) => void;
  onAdvance: (log: ProjectLogRow, status: string) => void;
  onHistory: (log: ProjectLogRow) => void;
}

/** One log of the Project Logs screen (spec 02 section 2). */
export function LogCard({
  log,
  projectName,
  formatDate,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  onAdvance,
  onHistory,
}: LogCardProps) {
  const type = (log.type ?? 'general') as LogType;
  const Icon = TYPE_ICONS[type] ?? FileText;
  const next = nextLogStatus(log.status);
  const title = log.title || 'Untitled log';
  const images = log.images ?? [];
  const db = useOptionalSyncDb();
  const photoIds = useMemo(() => images.flatMap((src) => photoIdOf(src) ?? []), [images]);
  return (
    <article
      aria-label={title}
      className="grid min-w-0 gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <header className="flex min-w-0 items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-700">
          <Icon className="h-5 w-5" aria-label={`${labelOf(LOG_TYPE_LABELS, type)} log`} />
        </span>
        <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
          <h2 className="text-base font-semibold wrap-anywhere text-slate-900">{title}</h2>
          <p className="text-sm wrap-anywhere text-slate-600">{projectName ?? 'Unknown Project'}</p>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={LOG_TYPE_BADGES[type] ?? 'secondary'}>{labelOf(LOG_TYPE_LABELS, log.type)}</Badge>
            <Badge variant={LOG_STATUS_BADGES[log.status as LogStatus] ?? 'secondary'}>
              {labelOf(LOG_STATUS_LABELS, log.status)}
            </Badge>
            <UnsentMarker rowId={log.id} related={photoIds} />
          </div>
        </div>
      </header>
      {log.content && (
        <p className="text-sm wrap-anywhere whitespace-pre-line text-slate-800">{log.content}</p>
      )}
      {images.length > 0 && (
        <ul aria-label="Photos" className="flex flex-wrap gap-2">
          {images.map((src, i) => (
            <li key={src}>
              <a
                href={src}
                target="_blank"
                rel="noopener noreferrer"
                // The device's bytes first (offline, or not uploaded yet), as the gallery's View does.
                onClick={(e) => {
                  const id = photoIdOf(src);
                  if (!db || !id || e.ctrlKey || e.metaKey || e.shiftKey) return;
                  e.preventDefault();
                  void openPhoto(db, id);
                }}
                aria-label={`Open photo ${i + 1} of ${title} in a new tab`}
                className="block h-20 w-20 overflow-hidden rounded-md border border-slate-200 bg-slate-100"
              >
                <PhotoImage
                  src={src}
                  alt={`Photo ${i + 1} of ${title}`}
                  variant="thumb"
                  className="h-full w-full object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-3">
        <p className="text-xs text-slate-500">
          Created <time dateTime={log.createdAt ?? undefined}>{formatDate(log.createdAt)}</time>
        </p>
        <div className="flex flex-wrap gap-2">
          {canEdit && next && (
            <Button size="sm" variant="secondary" onClick={() => onAdvance(log, next.status)}>
              {next.label}
            </Button>
          )}
          {canEdit && (
            <Button size="sm" variant="outline" onClick={() => onEdit(log)} aria-label={`Edit ${title}`}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Edit
            </Button>
          )}
          <Button
            size="icon"
            variant="ghost"
            onClick={() => onHistory(log)}
            aria-label={`History of ${title}`}
            title="History"
          >
            <History className="h-4 w-4" aria-hidden="true" />
          </Button>
          {canDelete && (
            <Button
              size="sm"
              variant="ghost"
              className="text-red-700 hover:bg-red-50"
              onClick={() => onDelete(log)}
              aria-label={`Delete ${title}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Delete
            </Button>
          )}
        </div>
      </footer>
    </article>
  );
}
