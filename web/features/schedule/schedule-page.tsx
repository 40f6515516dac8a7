import { useSyncDb } from '#web/app/local-data.tsx';
import { useCurrentUser } from '#web/app/session.tsx';
import { ScheduleScreen } from './components/schedule-screen.tsx';

/** /schedule: Schedule Management on the signed-in user's device database. */
export default function SchedulePage() {
  const user = useCurrentUser();
  const db = useSyncDb();
  return <ScheduleScreen db={db} userId={user.id} grants={user.grants} timeZone={user.companyTimeZone} />;
}
