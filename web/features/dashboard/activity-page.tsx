import { useCurrentUser } from '#web/app/session.tsx';
import { ActivityList } from './components/activity-list.tsx';

/** /activity: the full activity list behind Recent Activity's 'View all' (DECISIONS.md; issue 12). */
export default function ActivityPage() {
  const user = useCurrentUser();
  return <ActivityList userOffline={user.offline} />;
}
