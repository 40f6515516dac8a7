import { useMemo } from 'react';
import { useFirstDownload } from '#web/app/first-download.tsx';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useCurrentUser } from '#web/app/session.tsx';
import { DashboardScreen } from './components/dashboard-screen.tsx';

/** /dashboard (and / signed in): the Dashboard on the signed-in user's device database. */
export default function DashboardPage() {
  const user = useCurrentUser();
  const db = useSyncDb();
  const write = useLocalWrite();
  const { done, rows, online, problem } = useFirstDownload();
  // The sync status changes often (each push, each pull page): the screen, memoised, renders again only
  // when what it shows of the download changes, and never for it once the download is done.
  const downloading = useMemo(
    () => (done === true ? undefined : { done, rows, online, problem }),
    [done, rows, online, problem],
  );
  return <DashboardScreen db={db} user={user} write={write} downloading={downloading} />;
}
