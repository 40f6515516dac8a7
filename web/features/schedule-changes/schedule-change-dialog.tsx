import type { ScheduleChangeRow } from '#sync/db.ts';

/**
 * The one schedule-change form of the app (spec 02 section 2), in three uses:
 * - `request`: the Crew screen's 'Request Schedule Change' (the task fixed, its due date as a read-only
 *   original date, a new requested date picker, a reason);
 * - `update`: the Schedule screen's 'Update Task Schedule' (a Task select whose options read
 *   "<task title> - <project name>", optionally preselected with `taskId` and `originalDate`);
 * - `edit`: the same fields prefilled from an existing request `change` (only its changed fields are sent).
 * It reads the tasks it needs from the device mirror and writes through `sync/`, so it works offline; it
 * closes itself (through `onOpenChange(false)`) once the request is saved on the device.
 *
 * Its accessible name (the dialog's title) is part of the contract: 'Request Schedule Change',
 * 'Update Task Schedule' and 'Edit Schedule Change' by mode (`DIALOG_TITLES`).
 *
 * STUB: the Crew work (issue 10) replaces this body; the props are the contract other screens use.
 */
export interface ScheduleChangeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'request' | 'update' | 'edit';
  /** The task to preselect (`request` requires it). */
  taskId?: string | null;
  /** The original date to prefill (an ISO string); defaults to the task's due date. */
  originalDate?: string | null;
  /** The request to edit (`edit` only). */
  change?: ScheduleChangeRow | null;
}

export const DIALOG_TITLES: Record<ScheduleChangeDialogProps['mode'], string> = {
  request: 'Request Schedule Change',
  update: 'Update Task Schedule',
  edit: 'Edit Schedule Change',
};

export function ScheduleChangeDialog(props: ScheduleChangeDialogProps) {
  if (!props.open) return null;
  return (
    <div role="dialog" aria-label={DIALOG_TITLES[props.mode]}>
      <h2>{DIALOG_TITLES[props.mode]}</h2>
      <button type="button" onClick={() => props.onOpenChange(false)}>
        Close
      </button>
    </div>
  );
}
