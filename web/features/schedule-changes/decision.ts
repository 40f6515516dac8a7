import type { SCHEDULE_CHANGE_DECISIONS } from '#shared/schemas/schedule-change.ts';
import type { ScheduleChangeRow } from '#sync/db.ts';
import type { LocalWrite } from '#web/app/local-data.tsx';

/** The grant that lets a user approve or reject schedule changes (admins and managers, DESIGN.md section 6). */
export const APPROVE_PERMISSION = 'schedule_changes:approve';

export type ScheduleDecision = (typeof SCHEDULE_CHANGE_DECISIONS)[number];

/** Whether a user holding `grants` may decide, and the request is still open to a decision. */
export function canDecide(grants: readonly string[] | undefined, change: ScheduleChangeRow): boolean {
  return (grants ?? []).includes(APPROVE_PERMISSION) && (change.status ?? 'pending') === 'pending';
}

/**
 * Queues the decision on the device (a patch of `status` only, through the outbox like every write), so it
 * is taken offline too. The server decides when it arrives: approving moves the task's due date there
 * (sync/SPEC.md W14), and a request someone else decided first comes back as a Sync issue (W13).
 */
export async function decideScheduleChange(
  write: LocalWrite,
  change: ScheduleChangeRow,
  decision: ScheduleDecision,
): Promise<void> {
  await write('schedule_changes', 'patch', change.id, { status: decision });
}
