import { useState } from 'react';
import { LogOut } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import { useSyncDb } from '../local-data.tsx';
import { useSession } from '../session.tsx';

/** The confirm text when unsent changes would stay behind on this device. */
export function unsentChangesText(n: number): string {
  const changes = n === 1 ? '1 change that has' : `${n} changes that have`;
  return (
    `You have ${changes} not been sent to the server yet. They stay saved on this device and are sent ` +
    'the next time you sign in here. Signing out now means nobody else sees them until then.'
  );
}

/**
 * Sign Out (spec 02 section 2). With unsent changes in the outbox it asks first; the outbox stays in this
 * user's own database either way and is never sent under another user's session.
 */
export function SignOutButton() {
  const { signOut } = useSession();
  const db = useSyncDb();
  const [pending, setPending] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const doSignOut = async () => {
    setBusy(true);
    try {
      await signOut();
    } finally {
      setBusy(false);
    }
  };

  const onClick = async () => {
    let count = 0;
    try {
      count = await db.outbox.count();
    } catch {
      count = 0;
    }
    if (count > 0) setPending(count);
    else await doSignOut();
  };

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="px-0 sm:px-3"
        onClick={() => void onClick()}
        disabled={busy}
        aria-label="Sign Out"
      >
        <LogOut className="h-4 w-4" aria-hidden="true" />
        <span className="hidden sm:inline">Sign Out</span>
      </Button>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title="Sign out with unsent changes?"
        description={unsentChangesText(pending ?? 0)}
        cancelLabel="Stay signed in"
        confirmLabel="Sign out anyway"
        onConfirm={() => {
          setPending(null);
          void doSignOut();
        }}
      />
    </>
  );
}
