import { CloudUpload } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { useHasUnsentChanges } from './local-data.tsx';

/** The words of the marker, one place for every screen. */
export const WAITING_TO_SYNC = 'Waiting to sync';

/**
 * A small "Waiting to sync" marker for a card or row whose changes have not reached the server yet
 * (DESIGN.md section 7); renders nothing once they have.
 */
export function UnsentMarker({
  id,
  rowId,
  related,
  className,
}: {
  /** For a control that names this marker in its description (aria-describedby). */
  id?: string;
  rowId: string;
  /** Rows whose unsent work is this card's too (a log's photos). */
  related?: readonly string[];
  className?: string;
}) {
  if (!useHasUnsentChanges(rowId, related)) return null;
  return (
    <span
      id={id}
      className={cn(
        'inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-800 ring-1 ring-amber-200',
        className,
      )}
      title="Saved on this device; it is sent when the device is online"
    >
      <CloudUpload className="h-3 w-3" aria-hidden="true" />
      {WAITING_TO_SYNC}
    </span>
  );
}
