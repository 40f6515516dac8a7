import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { AsOfNotice } from '#web/components/as-of-notice.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { isNetworkError } from '#web/lib/api.ts';
import { useBrowserOnline } from '#web/lib/use-online.ts';
import { useActivityPages } from '../hooks/use-activities.ts';
import { useAppNow } from '#web/lib/app-clock.ts';
import { ActivityItem, OfficeReadProblem } from './recent-activity.tsx';
import { LINK_CLASS } from './widget.tsx';

/**
 * The full activity list behind Recent Activity's 'View all' (DECISIONS.md): newest first, 50 at a time,
 * 'Load more' for older ones. Kept per user like Recent Activity, so it opens offline "as of" its time.
 */
export function ActivityList({ now: fixedNow, userOffline }: { now?: Date; userOffline?: boolean }) {
  const now = useAppNow(fixedNow);
  const pages = useActivityPages();
  const online = useBrowserOnline();
  const offline = !online || userOffline === true || isNetworkError(pages.error);
  const rows = pages.data?.pages.flatMap((p) => p ?? []);

  let body;
  if (rows === undefined) {
    body =
      pages.isError || offline ? (
        <OfficeReadProblem
          error={pages.error}
          offline={offline}
          what="The activity list"
          retry={() => void pages.refetch()}
        />
      ) : (
        <div role="status" aria-label="Loading activity" className="grid min-w-0 grid-cols-1 gap-2">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-10 animate-pulse rounded bg-slate-200" />
          ))}
        </div>
      );
  } else if (rows.length === 0) {
    body = <p className="text-sm text-slate-600">No activity yet.</p>;
  } else {
    body = (
      <>
        <ul aria-label="Activities">
          {rows.map((a) => (
            <ActivityItem key={a.id} activity={a} now={now} />
          ))}
        </ul>
        {pages.hasNextPage && (
          <Button
            variant="outline"
            className="justify-self-start"
            disabled={pages.isFetchingNextPage || offline}
            onClick={() => void pages.fetchNextPage()}
          >
            {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        )}
        {pages.isFetchNextPageError && !offline && (
          <p role="alert" className="text-sm text-red-800">
            Older activity could not be loaded. Try again.
          </p>
        )}
      </>
    );
  }

  return (
    <section
      className="mx-auto grid w-full max-w-3xl grid-cols-1 gap-4 p-4 md:p-6"
      aria-labelledby="activity-heading"
    >
      <header className="grid min-w-0 grid-cols-1 justify-items-start gap-1">
        <Link to="/dashboard" className={LINK_CLASS}>
          <ArrowLeft className="mr-1 h-4 w-4" aria-hidden="true" />
          Dashboard
        </Link>
        <h1 id="activity-heading" className="text-2xl font-semibold text-slate-900">
          Recent Activity
        </h1>
        <p className="text-sm text-slate-600">Everything that happened in your projects, newest first.</p>
      </header>
      {offline && (
        <AsOfNotice
          what="the activity list"
          updatedAt={pages.data !== undefined ? pages.dataUpdatedAt : undefined}
        />
      )}
      <Card className="grid min-w-0 grid-cols-1 gap-3 p-4">{body}</Card>
    </section>
  );
}
