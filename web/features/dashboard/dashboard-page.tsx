import { useFirstDownload } from '#web/app/first-download.tsx';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useCurrentUser } from '#web/app/session.tsx';
import { DashboardScreen } from './components/dashboard-screen.tsx';

/** /dashboard (and / signed in): the Dashboard on the signed-in user's device database. */
export default function DashboardPage() {
  const user = useCurrentUser();
  const db = useSyncDb();
  const write = useLocalWrite();
  const download = useFirstDownload();
  return (
    <DashboardScreen
      db={db}
      user={user}
      write={write}
      downloading={download.done === true ? undefined : download}
    />
  );
}
