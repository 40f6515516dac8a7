import { useCallback, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { apiJson } from '#web/lib/api.ts';
import { ProjectsScreen } from './components/projects-screen.tsx';
import type { Manager } from './utils/assignee-name.ts';

const subscribeOnline = (fn: () => void) => {
  window.addEventListener('online', fn);
  window.addEventListener('offline', fn);
  return () => {
    window.removeEventListener('online', fn);
    window.removeEventListener('offline', fn);
  };
};
const isOnline = () => navigator.onLine;

/** /projects: the Projects screen on the signed-in user's device database. */
export default function ProjectsPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const write = useLocalWrite();
  const online = useSyncExternalStore(subscribeOnline, isOnline, () => true);
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  // The manager lookup's online fallback (spec 01 section 7); offline the users mirror and the last answer serve.
  const managers = useQuery({
    queryKey: ['/api/users/managers'],
    queryFn: () => apiJson<Manager[]>('GET', '/api/users/managers'),
    enabled: online && can('users:read'),
  });
  return (
    <ProjectsScreen
      db={db}
      write={write}
      can={can}
      companyName={user?.companyName}
      serverManagers={managers.data ?? undefined}
    />
  );
}
