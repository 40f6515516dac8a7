import type { ScheduleChangeRow } from '#sync/db.ts';

/**
 * Approve and Reject on a pending schedule-change request (DECISIONS.md: managers and admins decide;
 * approving moves the task's due date). Renders nothing for a decided request or for a role without the
 * right to decide. Offline the decision is queued; the server decides, and a request someone else decided
 * first comes back as a named Sync issue.
 *
 * STUB: the Schedule work (issue 10) replaces this body; the props are the contract other screens use.
 */
export interface DecisionButtonsProps {
  change: ScheduleChangeRow;
}

export function DecisionButtons(_props: DecisionButtonsProps) {
  return null;
}
