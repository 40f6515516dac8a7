import { useCallback } from 'react';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { ProjectsScreen } from './components/projects-screen.tsx';

/** /projects: the Projects screen on the signed-in user's device database. */
export default function ProjectsPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  return (
    <ProjectsScreen
      db={db}
      write={write}
      can={can}
      companyName={user?.companyName}
      timeZone={user?.companyTimeZone}
    />
  );
}
