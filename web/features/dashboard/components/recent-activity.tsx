import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '#web/components/ui/button.tsx';
import { isNetworkError, serverMessage } from '#web/lib/api.ts';
import type { Activity } from '../hooks/use-activities.ts';
import { activityTimeText } from '../utils/activity-time.ts';
import { Widget } from './widget.tsx';

/** Who did it: the first name, else the email. */
export const activityActor = (a: Activity) => a.first_name?.trim() || a.email || null;

/** One activity: its description and time (spec 01 section 2). */
export function ActivityItem({ activity, now }: { activity: Activity; now: Date }) {
  const actor = activityActor(activity);
  return (
    <li className="grid min-w-0 grid-cols-1 gap-0.5 border-b border-slate-100 py-2 last:border-b-0">
      <p className="text-sm wrap-anywhere text-slate-900">{activity.description || activity.action_type}</p>
      <p className="text-xs text-slate-600">
        {actor && <span>{actor} · </span>}
        <time dateTime={activity.created_at}>{activityTimeText(activity.created_at, now)}</time>
      </p>
    </li>
  );
}

/** What a failed office read shows when nothing was kept: offline says when it comes, an error says why. */
export function OfficeReadProblem({
  error,
  offline,
  what,
  retry,
}: {
  error: unknown;
  offline: boolean;
  what: string;
  retry: () => void;
}) {
  if (offline || isNetworkError(error))
    return <p className="py-2 text-sm text-slate-600">{what} will load when you are back online.</p>;
  return (
    <div
      role="alert"
      className="grid min-w-0 grid-cols-1 justify-items-start gap-2 py-2 text-sm text-red-800"
    >
      <p>
        {what} could not be loaded: {serverMessage(error)}
      </p>
      <Button variant="outline" size="sm" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/** Recent Activity: the first 5, 'View all' going to the full list at /activity (DECISIONS.md). */
export function RecentActivity({
  query,
  offline,
  now,
}: {
  query: UseQueryResult<Activity[] | null>;
  offline: boolean;
  now: Date;
}) {
  const list = query.data === undefined ? undefined : (query.data ?? []);
  const problem =
    list === undefined && (query.isError || offline) ? (
      <OfficeReadProblem
        error={query.error}
        offline={offline}
        what="Recent activity"
        retry={() => void query.refetch()}
      />
    ) : undefined;
  return (
    <Widget
      title="Recent Activity"
      action={{ label: 'View all', to: '/activity' }}
      loading={list === undefined}
      error={problem}
      empty={list?.length === 0 && 'No activity yet.'}
    >
      <ul>
        {list?.slice(0, 5).map((a) => (
          <ActivityItem key={a.id} activity={a} now={now} />
        ))}
      </ul>
    </Widget>
  );
}
