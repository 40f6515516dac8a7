import { useState } from 'react';
import { History, RotateCcw } from 'lucide-react';
import { fieldInWords, instantInWords, valueInWords } from '#shared/rules/field-words.ts';
import type { SyncTable } from '#shared/sync-protocol.ts';
import type { HistoryEntry, ReplacedValueEntry } from '#shared/sync-protocol.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useRecordHistory } from './use-record-history.ts';

export interface RecordHistoryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  table: SyncTable;
  rowId: string;
  /** How the record is named in the title ('Harbor Tower'). */
  recordName: string;
  /** Field labels of the record's form ('Due date'); other fields are named in words. */
  fieldLabels?: Partial<Record<string, string>>;
  /** A value as the screen shows it (an assignee's name for an id); `valueInWords` otherwise. */
  formatValue?: (field: string, value: unknown) => string | undefined;
  /**
   * Writes a replaced value back: an ordinary synced edit of that one field (a patch through the sync
   * module), so it works offline and wins like any newer edit. Omitted when the user may not edit.
   */
  onRestore?: (field: string, value: unknown) => Promise<void>;
}

const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The History of a synced record (issue 9): values another edit replaced, each with a one-tap Restore,
 * and what was done to the record, newest first. Mount it when it opens.
 */
export function RecordHistoryDialog({
  open,
  onOpenChange,
  table,
  rowId,
  recordName,
  fieldLabels = {},
  formatValue,
  onRestore,
}: RecordHistoryDialogProps) {
  const history = useRecordHistory(table, rowId, open);
  const [restored, setRestored] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const label = (field: string) => fieldLabels[field] ?? sentenceCase(fieldInWords(field));
  const show = (field: string, value: unknown) => formatValue?.(field, value) ?? valueInWords(value);

  const restore = async (entry: ReplacedValueEntry) => {
    if (!onRestore) return;
    setBusy(entry.id);
    try {
      await onRestore(entry.field, entry.replacedValue);
      setRestored((s) => new Set(s).add(entry.id));
      toast({
        title: `${label(entry.field)} restored`,
        description: `${recordName}: ${show(entry.field, entry.replacedValue)}`,
      });
    } catch (err) {
      toast({
        title: 'Failed to restore',
        description: err instanceof Error && err.message ? err.message : String(err),
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  };

  const entries: HistoryEntry[] = history.data?.entries ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`History of ${recordName}`}
        description="Values other edits replaced, and what was done to this record."
        hideDescription
      >
        {/* Offline, TanStack Query pauses the fetch and it stays pending: that is "offline", not "loading". */}
        {history.isPending && history.fetchStatus !== 'paused' ? (
          <p role="status" className="text-sm text-slate-600">
            Loading history...
          </p>
        ) : (history.isError || history.fetchStatus === 'paused') && !history.data ? (
          <p role="status" className="text-sm text-slate-600">
            History is shown when this device is online.
          </p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing has happened to this record yet.</p>
        ) : (
          <ol className="grid gap-3" aria-label="History">
            {entries.map((e) =>
              e.kind === 'replaced' ? (
                <li
                  key={e.id}
                  aria-label={`${label(e.field)} replaced`}
                  className="grid gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm"
                >
                  <p className="font-medium text-slate-900">
                    {label(e.field)}: {show(e.field, e.replacedValue)}
                    {e.replacedBy ? ` (set by ${e.replacedBy.name})` : ''} was replaced by{' '}
                    {show(e.field, e.keptValue)}
                    {e.keptBy ? ` from ${e.keptBy.name}` : ''}
                  </p>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <time dateTime={e.at} className="text-xs text-slate-600">
                      {instantInWords(e.at)}
                    </time>
                    {onRestore &&
                      (restored.has(e.id) ? (
                        <span className="text-xs font-medium text-teal-700">Restored</span>
                      ) : (
                        <Button
                          variant="outline"
                          className="min-h-11"
                          aria-label={`Restore ${label(e.field).toLowerCase()} ${show(e.field, e.replacedValue)}`}
                          disabled={busy !== null}
                          onClick={() => void restore(e)}
                        >
                          <RotateCcw className="h-4 w-4" aria-hidden="true" />
                          Restore
                        </Button>
                      ))}
                  </div>
                </li>
              ) : (
                <li key={e.id} className="flex items-start gap-2 text-sm text-slate-700">
                  <History className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                  <span className="grid">
                    <span>
                      {e.description}
                      {e.by ? ` by ${e.by.name}` : ''}
                    </span>
                    <time dateTime={e.at} className="text-xs text-slate-500">
                      {instantInWords(e.at)}
                    </time>
                  </span>
                </li>
              ),
            )}
          </ol>
        )}
      </DialogContent>
    </Dialog>
  );
}
