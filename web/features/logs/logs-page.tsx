import { useCallback } from 'react';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { LogsScreen } from './components/logs-screen.tsx';

/** /logs: the Project Logs screen on the signed-in user's device database. */
export default function LogsPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  return <LogsScreen db={db} write={write} can={can} timeZone={user?.companyTimeZone} />;
}
