import { useCallback } from 'react';
import { useSyncDb } from '#web/app/local-data.tsx';
import { useSession } from '#web/app/session.tsx';
import { PhotosScreen } from './components/photos-screen.tsx';

/** /photos: the Photo Gallery on the signed-in user's device database. */
export default function PhotosPage() {
  const { user } = useSession();
  const db = useSyncDb();
  const grants = user?.grants;
  const can = useCallback((permission: string) => !grants || grants.includes(permission), [grants]);
  return <PhotosScreen db={db} can={can} timeZone={user?.companyTimeZone} />;
}
