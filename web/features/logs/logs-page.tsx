import { useCallback } from 'react';
import { firstDownloadText, useFirstDownload } from '#web/app/first-download.tsx';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { LogsScreen } from './components/logs-screen.tsx';

/** /logs: the Project Logs screen on the signed-in user's device database. */
export default function LogsPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const download = useFirstDownload();
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  const downloaded = download.done === true;
  return (
    <LogsScreen
      db={db}
      write={write}
      can={can}
      timeZone={user?.companyTimeZone}
      downloaded={downloaded}
      downloadText={
        download.done === false
          ? [firstDownloadText(download), download.problem].filter(Boolean).join(' ')
          : undefined
      }
    />
  );
}
