import { useState } from 'react';
import { LogOut } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/alert-dialog.tsx';
import type { SyncDb } from '#sync/db.ts';
import { photosWithUnsentBytes } from '#sync/photo-lane.ts';
import { useSyncDb } from '../local-data.tsx';
import { useSession } from '../session.tsx';

/** What would stay behind on this device: queued changes, and photos whose bytes have not gone up. */
interface UnsentWork {
  changes: number;
  photos: number;
}

/** The confirm's title: what waits, in the words of its text (a photo alone is not a "change"). */
function unsentTitle({ changes, photos }: UnsentWork): string {
  const what = changes > 0 && photos > 0 ? 'changes and photos' : photos > 0 ? 'photos' : 'changes';
  return `Sign out with unsent ${what}?`;
}

/** The confirm text when unsent changes or photos would stay behind on this device. */
function unsentChangesText({ changes, photos }: UnsentWork): string {
  const parts = [
    changes > 0 ? (changes === 1 ? '1 change' : `${changes} changes`) : null,
    photos > 0 ? (photos === 1 ? '1 photo' : `${photos} photos`) : null,
  ].filter((p) => p !== null);
  const has = changes + photos === 1 ? 'has' : 'have';
  return (
    `You have ${parts.join(' and ')} that ${has} not been sent to the server yet. They stay saved on this ` +
    'device and are sent the next time you sign in here. Signing out now means nobody else sees them until then.'
  );
}

/**
 * What Sign Out would leave behind, as [changes, photos]: the queued changes, and the photos whose bytes
 * wait for the photo lane. A photo taken offline is one photo, not also a change (its row's create is left
 * out of the changes). Photos the server refused are not counted: like refused changes, they wait in "Sync
 * issues" and are not sent by themselves, which is what the confirm promises.
 */
async function unsentWork(db: SyncDb): Promise<[number, number]> {
  const photos = new Set(await photosWithUnsentBytes(db, ['pending']));
  const queued = await db.outbox.toArray();
  const changes = queued.filter((e) => !(e.table === 'photos' && e.op === 'create' && photos.has(e.rowId)));
  return [changes.length, photos.size];
}

/**
 * Sign Out (spec 02 section 2). With unsent changes in the outbox, or photos whose bytes have not reached
 * the server (their rows may be pushed already: the bytes go up on the photo lane), it asks first; both
 * stay in this user's own database either way and are never sent under another user's session.
 */
export function SignOutButton() {
  const { signOut } = useSession();
  const db = useSyncDb();
  const [asking, setAsking] = useState(false);
  // Kept after the dialog closes: its text stays the same while it fades out.
  const [unsent, setUnsent] = useState<UnsentWork>({ changes: 0, photos: 0 });
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
    // A count that cannot be read counts as nothing: sign-out must never be stuck behind the database.
    const [changes, photos] = await unsentWork(db).catch(() => [0, 0]);
    if (changes > 0 || photos > 0) {
      setUnsent({ changes, photos });
      setAsking(true);
    } else await doSignOut();
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
        open={asking}
        onOpenChange={setAsking}
        title={unsentTitle(unsent)}
        description={unsentChangesText(unsent)}
        cancelLabel="Stay signed in"
        confirmLabel="Sign out anyway"
        onConfirm={() => {
          setAsking(false);
          void doSignOut();
        }}
      />
    </>
  );
}
