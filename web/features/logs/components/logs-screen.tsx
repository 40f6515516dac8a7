import { useCallback, useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { DEFAULT_TIME_ZONE, zoneOrDefault } from '#shared/rules/dates.ts';
import { hasActiveLogFilters } from '#shared/rules/log-filters.ts';
import { newId } from '#shared/ids.ts';
import type { ProjectLogRow, SyncDb } from '#sync/db.ts';
import { addPhotos, type BatchWrite } from '#sync/mutate.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { RecordHistoryDialog } from '#web/components/record-history/record-history-dialog.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { photoFileUrl, preparePhotos, type PreparedPhoto } from '#web/features/photos/import-photos.ts';
import { useLogFilters } from '../hooks/use-log-filters.ts';
import { useLogPage, useProjectChoices } from '../hooks/use-logs.ts';
import { LOG_STATUS_LABELS, LOG_TYPE_LABELS, labelOf } from '../utils/labels.ts';
import { LOG_FIELD_LABELS, logToForm, newLogForm } from '../utils/log-form.ts';
import { LogCard } from './log-card.tsx';
import { LogsSkeleton } from './logs-skeleton.tsx';
import { LogFiltersBar } from './log-filters-bar.tsx';
import { LogFormDialog, type LogSubmission } from './log-form-dialog.tsx';

export interface LogsScreenProps {
  db: SyncDb;
  write: LocalWrite;
  /** Whether the user holds a permission (`logs:create`...); everything is allowed when omitted. */
  can?: (permission: string) => boolean;
  /** The company's IANA time zone: what Today, This Week and This Month mean. UTC when omitted. */
  timeZone?: string;
  /** The photo pipeline's compression (a seam for tests in environments without image decoding). */
  preparePhotos?: typeof preparePhotos;
}

/** How many cards a page shows; 'Show more logs' adds as many again. */
export const LOGS_PAGE_SIZE = 30;

type DialogState =
  | { kind: 'create' }
  | { kind: 'edit'; log: ProjectLogRow }
  | { kind: 'delete'; log: ProjectLogRow }
  | { kind: 'history'; log: ProjectLogRow };

const allowAll = () => true;
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : String(err));

/**
 * The Project Logs screen (spec 02 section 2), local-first: it reads the device's mirror with a live query
 * and writes through the outbox, and its photos go through the photo pipeline, so it all works offline.
 */
export function LogsScreen({
  db,
  write,
  can = allowAll,
  timeZone = DEFAULT_TIME_ZONE,
  preparePhotos: prepareFiles = preparePhotos,
}: LogsScreenProps) {
  const zone = zoneOrDefault(timeZone);
  const { filters, set, clear } = useLogFilters();
  const [limit, setLimit] = useState(LOGS_PAGE_SIZE);
  const page = useLogPage(db, filters, zone, limit);
  const projects = useProjectChoices(db);
  const savedToast = useSavedToast(db);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const close = useCallback(() => setDialog(null), []);

  const projectNames = useMemo(
    () => new Map((projects ?? []).map((p) => [p.id, p.name ?? 'Untitled project'])),
    [projects],
  );
  const formatDate = useMemo(() => {
    const fmt = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: zone,
    });
    return (iso: string | null | undefined) => {
      const t = iso ? Date.parse(iso) : Number.NaN;
      return Number.isNaN(t) ? '' : fmt.format(t);
    };
  }, [zone]);

  /**
   * Photos go through the pipeline first (compressed, not yet stored), so the log's create or patch already
   * names them; then the photos and the log are saved in ONE transaction (`addPhotos`), or nothing is.
   */
  const prepareFor = async (
    projectId: string,
    title: string,
    { files, tags, onProgress }: LogSubmission,
    failure: string,
  ) => {
    if (!files.length) return [];
    try {
      return await prepareFiles(files, { projectId, description: title, tags }, { onProgress });
    } catch (err) {
      toast({
        title: 'Upload Error',
        description: `${failure} ${messageOf(err)}`,
        variant: 'destructive',
      });
      throw err;
    }
  };

  const saveWith = async (photos: PreparedPhoto[], w: BatchWrite) => {
    if (photos.length) await addPhotos(db, photos, w);
    else await write(w.table, w.op, w.rowId, w.data, w.base);
  };

  const create = async (s: LogSubmission) => {
    const photos = await prepareFor(s.data.projectId, s.data.title, s, 'Failed to upload photos...');
    try {
      const id = newId();
      const images = [...s.data.images, ...photos.map((p) => photoFileUrl(p.id))];
      await saveWith(photos, { table: 'project_logs', op: 'create', rowId: id, data: { ...s.data, images } });
      void savedToast(id, { title: 'Project log created successfully', description: s.data.title });
    } catch (err) {
      toast({ title: 'Failed to create project log', description: messageOf(err), variant: 'destructive' });
      throw err;
    }
  };

  const update = async (log: ProjectLogRow, s: LogSubmission) => {
    const photos = await prepareFor(s.data.projectId, s.data.title, s, 'Failed to upload new photos...');
    const added = photos.map((p) => photoFileUrl(p.id));
    const patch = added.length ? { ...s.changed, images: [...s.data.images, ...added] } : s.changed;
    try {
      // The photos as the form loaded them (`log` is the row the dialog opened with): the server merges
      // what this edit added and removed into the log's photos as they are by then (sync/SPEC.md W20), so a
      // photo someone else added meanwhile, even one pulled while the dialog was open, is kept.
      await saveWith(photos, {
        table: 'project_logs',
        op: 'patch',
        rowId: log.id,
        data: patch,
        base: { images: log.images ?? [] },
      });
      void savedToast(log.id, { title: 'Log updated successfully', description: s.data.title });
    } catch (err) {
      toast({ title: 'Failed to update log', description: messageOf(err), variant: 'destructive' });
      throw err;
    }
  };

  const advance = async (log: ProjectLogRow, status: string) => {
    try {
      await write('project_logs', 'patch', log.id, { status });
      void savedToast(log.id, {
        title: 'Log updated successfully',
        description: `${log.title ?? 'Log'}: ${labelOf(LOG_STATUS_LABELS, status)}`,
      });
    } catch (err) {
      toast({ title: 'Failed to update log', description: messageOf(err), variant: 'destructive' });
    }
  };

  const remove = async (log: ProjectLogRow) => {
    try {
      await write('project_logs', 'delete', log.id);
      void savedToast(log.id, { title: 'Log deleted successfully', description: log.title ?? undefined });
    } catch (err) {
      toast({ title: 'Failed to delete log', description: messageOf(err), variant: 'destructive' });
    }
  };

  // Before the first download completes the route's gate shows `LogsSkeleton` instead of this screen.
  const loading = page === undefined || projects === undefined;
  const filtered = hasActiveLogFilters(filters);

  return (
    <section aria-labelledby="logs-title" className="mx-auto grid w-full max-w-5xl gap-4 p-4 md:p-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 id="logs-title" className="text-2xl font-bold text-slate-900">
            Project Logs
          </h1>
          <p className="text-slate-600">Daily reports, issues, milestones and safety notes</p>
        </div>
        {can('logs:create') && (
          <Button onClick={() => setDialog({ kind: 'create' })}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Create Log
          </Button>
        )}
      </header>

      <LogFiltersBar
        filters={filters}
        projects={projects ?? []}
        onChange={(change) => {
          setLimit(LOGS_PAGE_SIZE);
          set(change);
        }}
        onClear={() => {
          setLimit(LOGS_PAGE_SIZE);
          clear();
        }}
      />

      {loading ? (
        <div className="grid gap-4" aria-busy="true">
          <p role="status" className="sr-only">
            Loading logs...
          </p>
          <LogsSkeleton />
        </div>
      ) : page.logs.length === 0 ? (
        <div className="grid justify-items-center gap-1 rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
          <p className="text-lg font-semibold text-slate-900">No logs found</p>
          <p className="text-slate-600">
            {filtered
              ? 'Try adjusting your filters or search terms'
              : 'Create your first project log to get started'}
          </p>
        </div>
      ) : (
        <>
          <ul aria-label="Project logs" className="grid gap-4">
            {page.logs.map((log) => (
              <li key={log.id}>
                <LogCard
                  log={log}
                  projectName={log.projectId ? projectNames.get(log.projectId) : undefined}
                  formatDate={formatDate}
                  canEdit={can('logs:update')}
                  canDelete={can('logs:delete')}
                  onEdit={(l) => setDialog({ kind: 'edit', log: l })}
                  onDelete={(l) => setDialog({ kind: 'delete', log: l })}
                  onAdvance={(l, status) => void advance(l, status)}
                  onHistory={(l) => setDialog({ kind: 'history', log: l })}
                />
              </li>
            ))}
          </ul>
          {page.more && (
            <Button variant="outline" onClick={() => setLimit((n) => n + LOGS_PAGE_SIZE)}>
              Show more logs
            </Button>
          )}
        </>
      )}

      {dialog?.kind === 'create' && (
        <LogFormDialog
          mode="create"
          initial={newLogForm()}
          projects={projects ?? []}
          onOpenChange={(open) => !open && close()}
          onSubmit={create}
        />
      )}
      {dialog?.kind === 'edit' && (
        <LogFormDialog
          mode="edit"
          initial={logToForm(dialog.log)}
          projects={projects ?? []}
          onOpenChange={(open) => !open && close()}
          onSubmit={(s) => update(dialog.log, s)}
        />
      )}
      {dialog?.kind === 'history' && (
        <RecordHistoryDialog
          open
          onOpenChange={(open) => !open && close()}
          table="project_logs"
          rowId={dialog.log.id}
          recordName={dialog.log.title ?? 'Log'}
          fieldLabels={LOG_FIELD_LABELS}
          formatValue={(field, value) =>
            typeof value !== 'string'
              ? undefined
              : field === 'projectId'
                ? (projectNames.get(value) ?? 'Unknown Project')
                : field === 'type'
                  ? labelOf(LOG_TYPE_LABELS, value)
                  : field === 'status'
                    ? labelOf(LOG_STATUS_LABELS, value)
                    : undefined
          }
          onRestore={
            can('logs:update')
              ? (field, value) => write('project_logs', 'patch', dialog.log.id, { [field]: value })
              : undefined
          }
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && close()}
          title="Delete log?"
          description={`"${dialog.log.title ?? 'This log'}" will be deleted for everyone. This cannot be undone.`}
          confirmLabel="Delete"
          onConfirm={() => void remove(dialog.log)}
        />
      )}
    </section>
  );
}
