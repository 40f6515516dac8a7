import { useLocalWrite, useSyncDb } from '#web/app/local-data.tsx';
import { useCurrentUser } from '#web/app/session.tsx';
import { CrewScreen } from './components/crew-screen.tsx';

/** /crew: the Crew Dashboard on the signed-in user's device database. */
export default function CrewPage() {
  const user = useCurrentUser();
  const db = useSyncDb();
  const write = useLocalWrite();
  return (
    <CrewScreen
      db={db}
      write={write}
      userId={user.id}
      firstName={user.firstName}
      timeZone={user.companyTimeZone}
    />
  );
}
