import { useCallback } from 'react';
import { useLocalBatchWrite, useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { TasksScreen } from './components/tasks-screen.tsx';

/** /tasks: the Task Management screen on the signed-in user's device database. */
export default function TasksPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const writeAll = useLocalBatchWrite();
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  return (
    <TasksScreen
      db={db}
      write={write}
      writeAll={writeAll}
      userId={user?.id ?? ''}
      can={can}
      timeZone={user?.companyTimeZone}
    />
  );
}
