import { useState } from 'react';
import { Check, X } from 'lucide-react';
import type { ScheduleChangeRow } from '#sync/db.ts';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSavedToast } from '#web/app/saved-toast.ts';
import { useSession } from '#web/app/session.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { canDecide, decideScheduleChange, type ScheduleDecision } from './decision.ts';

/**
 * Approve and Reject on a pending schedule-change request (DECISIONS.md: managers and admins decide;
 * approving moves the task's due date). Renders nothing for a decided request or for a role without the
 * right to decide. Offline the decision is queued; the server decides, and a request someone else decided
 * first comes back as a named Sync issue.
 */
export interface DecisionButtonsProps {
  change: ScheduleChangeRow;
}

const DONE: Record<ScheduleDecision, string> = {
  approved: 'Schedule change approved',
  rejected: 'Schedule change rejected',
};

export function DecisionButtons({ change }: DecisionButtonsProps) {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const savedToast = useSavedToast(db);
  const [busy, setBusy] = useState(false);
  const [confirmReject, setConfirmReject] = useState(false);
  if (!canDecide(user?.grants, change)) return null;

  const decide = async (decision: ScheduleDecision) => {
    setBusy(true);
    try {
      await decideScheduleChange(write, change, decision);
      void savedToast(change.id, {
        title: DONE[decision],
        description: decision === 'approved' ? "The task's due date moves to the requested date." : undefined,
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Failed to save the decision',
        description: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Decision">
      <Button size="sm" disabled={busy} onClick={() => void decide('approved')}>
        <Check className="h-4 w-4" aria-hidden="true" />
        Approve
      </Button>
      <Button size="sm" variant="outline" disabled={busy} onClick={() => setConfirmReject(true)}>
        <X className="h-4 w-4" aria-hidden="true" />
        Reject
      </Button>
      <ConfirmDialog
        open={confirmReject}
        onOpenChange={setConfirmReject}
        title="Reject this schedule change?"
        description="The task keeps its current due date and the requester is told the request was rejected."
        confirmLabel="Reject"
        onConfirm={() => void decide('rejected')}
      />
    </div>
  );
}
