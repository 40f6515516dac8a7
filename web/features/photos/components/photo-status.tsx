import { AlertTriangle, CheckCircle2, CloudUpload, Smartphone } from 'lucide-react';
import { useState } from 'react';
import type { SyncDb } from '#sync/db.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { cn } from '#web/lib/cn.ts';
import { photoStateText, removeRefusedPhoto, retryRefusedPhoto, type PhotoState } from '../photo-state.ts';

const STYLE: Record<PhotoState['kind'], string> = {
  'on-device': 'bg-amber-50 text-amber-800 ring-amber-200',
  uploading: 'bg-sky-50 text-sky-800 ring-sky-200',
  uploaded: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  refused: 'bg-red-50 text-red-800 ring-red-200',
  elsewhere: 'bg-slate-50 text-slate-700 ring-slate-200',
};

/** A photo's upload state on its card; a refused photo offers Retry and Remove. */
export function PhotoStatus({ db, state, className }: { db: SyncDb; state: PhotoState; className?: string }) {
  const [confirming, setConfirming] = useState(false);
  const Icon =
    state.kind === 'uploaded'
      ? CheckCircle2
      : state.kind === 'refused'
        ? AlertTriangle
        : state.kind === 'on-device'
          ? Smartphone
          : CloudUpload;
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      <span
        className={cn(
          'inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1',
          STYLE[state.kind],
        )}
        data-photo-state={state.kind}
      >
        <Icon className="h-3 w-3 shrink-0" aria-hidden="true" />
        <span className="truncate">{photoStateText(state)}</span>
      </span>
      {state.kind === 'refused' && (
        <>
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              retryRefusedPhoto(db, state.sha256).catch(() =>
                toast({
                  title: 'Error',
                  description: 'The photo could not be retried',
                  variant: 'destructive',
                }),
              )
            }
          >
            Retry
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
            Remove
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Remove this photo?"
            description="The server refused it. Removing it deletes it from this device; it cannot be undone."
            confirmLabel="Remove"
            variant="destructive"
            onConfirm={() =>
              void removeRefusedPhoto(db, state.sha256).catch(() =>
                toast({ title: 'Failed to delete photo', variant: 'destructive' }),
              )
            }
          />
        </>
      )}
    </div>
  );
}
