import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { activeProjectCount } from '#shared/rules/overview-metrics.ts';
import type { SyncDb } from '#sync/db.ts';
import { FirstDownloadProgress, type FirstDownload } from '#web/app/first-download.tsx';
import type { LocalWrite } from '#web/app/local-data.tsx';
import { canOpenScreen } from '#web/app/app-paths.ts';
import { AsOfNotice } from '#web/components/as-of-notice.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { isNetworkError, serverMessage } from '#web/lib/api.ts';
import type { CurrentUser } from '#web/lib/session-user.ts';
import { useBrowserOnline } from '#web/lib/use-online.ts';
import { useRecentActivity } from '../hooks/use-activities.ts';
import { useAppNow } from '#web/lib/app-clock.ts';
import { useFieldData, type DashboardTaskView } from '../hooks/use-field-data.ts';
import { ActiveProjects, MultiProjectOverview, QuickActions, StatCards } from './overview-widgets.tsx';
import { DashboardFrame } from './dashboard-frame.tsx';
import { RecentActivity } from './recent-activity.tsx';
import {
  ExpiredTasks,
  NextPriorityTasks,
  TaskSummary,
  TodaysTasks,
  type TaskListContext,
} from './task-widgets.tsx';

// The two office tabs load their code when opened: the dashboard's first paint stays light (issue 12).
const CommunicationsFeed = lazy(() =>
  import('#web/features/communications/communications-feed.tsx').then((m) => ({
    default: m.CommunicationsFeed,
  })),
);
const FinancialHealthPanel = lazy(() =>
  import('#web/features/finance/financial-health-panel.tsx').then((m) => ({
    default: m.FinancialHealthPanel,
  })),
);

export const DASHBOARD_TABS = ['overview', 'tasks', 'communications', 'finance'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** Finance stays with admins and managers (DECISIONS.md); the server refuses the others too. */
export const canSeeFinance = (user: Pick<CurrentUser, 'grants'>) => user.grants.includes('finance:read');

export interface DashboardScreenProps {
  db: SyncDb;
  user: CurrentUser;
  write: LocalWrite;
  /** The clock (tests); the live one moves every minute. */
  now?: Date;
  /** The device's first download while it runs; the field tabs wait for it (undefined once done). */
  downloading?: FirstDownload;
}

/**
 * The Dashboard (spec 01 section 2; issue 12). Projects, tasks, photos and the numbers drawn from them come
 * from the device mirror and work offline; Recent Activity is an office read kept per user, shown "as of"
 * its time when the device is offline.
 */
export const DashboardScreen = memo(function DashboardScreen({
  db,
  user,
  write,
  now: fixedNow,
  downloading,
}: DashboardScreenProps) {
  const now = useAppNow(fixedNow);
  const finance = canSeeFinance(user);
  const activity = useRecentActivity();
  const online = useBrowserOnline();
  const failedOffline = isNetworkError(activity.error);
  const offline = !online || user.offline === true || failedOffline;
  // Back online after the read failed for want of a connection: ask again at once. Until an answer came,
  // the "Offline" line stayed up, a minute and more after the header said everything was sent.
  const { refetch } = activity;
  useEffect(() => {
    if (online && failedOffline) void refetch();
  }, [online, failedOffline, refetch]);

  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: DashboardTab =
    DASHBOARD_TABS.find((t) => t === asked && (t !== 'finance' || finance)) ?? 'overview';
  const setTab = useCallback(
    (value: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === 'overview') next.delete('tab');
          else next.set('tab', value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const tabProps = { db, user, write, now, finance };
  return (
    <DashboardFrame user={user}>
      {offline && (
        <AsOfNotice
          what="recent activity"
          updatedAt={activity.data !== undefined ? activity.dataUpdatedAt : undefined}
          reason="Projects, tasks and photos are shown from this device; changes you make sync when you are back online."
        />
      )}
      <Tabs value={tab} onValueChange={setTab} className="grid min-w-0 grid-cols-1 gap-4">
        <TabsList
          aria-label="Dashboard"
          className="w-full max-sm:grid! max-sm:grid-cols-2 sm:w-auto sm:justify-start"
        >
          <TabsTrigger value="overview">Project Overview</TabsTrigger>
          <TabsTrigger value="tasks">Task Management</TabsTrigger>
          <TabsTrigger value="communications">Communications</TabsTrigger>
          {finance && <TabsTrigger value="finance">Financial Health</TabsTrigger>}
        </TabsList>

        <TabsContent value="overview" className="grid min-w-0 grid-cols-1 gap-4">
          {downloading ? (
            <>
              {/* The quick actions need no data, and sit where the finished tab has them. */}
              <QuickActions user={user} />
              <DashboardDownloading download={downloading} />
            </>
          ) : (
            <OverviewTab {...tabProps} offline={offline} />
          )}
        </TabsContent>

        <TabsContent value="tasks" className="grid min-w-0 grid-cols-1 gap-4">
          {downloading ? <DashboardDownloading download={downloading} /> : <TasksTab {...tabProps} />}
        </TabsContent>

        <TabsContent value="communications" className="min-w-0">
          {/* Read from the device too (sync/SPEC.md W15): a half-filled feed would say "none yet". */}
          {downloading ? (
            <DashboardDownloading download={downloading} />
          ) : (
            <Suspense fallback={<Spinner label="Loading communications..." className="p-10" />}>
              <CommunicationsFeed />
            </Suspense>
          )}
        </TabsContent>

        {finance && (
          <TabsContent value="finance" className="min-w-0">
            <Suspense fallback={<Spinner label="Loading financial health..." className="p-10" />}>
              <FinancialHealthPanel />
            </Suspense>
          </TabsContent>
        )}
      </Tabs>
    </DashboardFrame>
  );
});

interface FieldTabProps {
  db: SyncDb;
  user: CurrentUser;
  write: LocalWrite;
  now: Date;
  finance: boolean;
}

/**
 * The tabs drawn from the device mirror each read it only while shown (Radix mounts the active tab
 * alone), so the office tabs read nothing from it.
 */
function OverviewTab({ db, user, now, finance, offline }: FieldTabProps & { offline: boolean }) {
  const timeZone = user.companyTimeZone;
  // View All only for a role that may open /projects (a subcontractor would land on Access Denied).
  const linkProjects = canOpenScreen(user, 'projects');
  const field = useFieldData(db, now, timeZone);
  // Its own subscription (the same cached read as the screen's): TanStack re-renders a component for the
  // fields it has read, and the screen reads only the error and time of this answer, not its rows.
  const activity = useRecentActivity();
  // The three reads answer one by one; widgets filling in turn would push each other down the screen, so
  // one placeholder stands for them until all three have answered.
  const { projects, tasks, photos } = field;
  const answered = useMemo(
    () => (projects && tasks && photos ? { projects, tasks, photos } : null),
    [projects, tasks, photos],
  );
  // The widgets are drawn as a transition: React renders them in slices between which taps and scrolls
  // are handled, rather than in one long task on a phone (total blocking time, budget B10).
  const loaded = useDeferredValue(answered);
  return (
    <>
      <div className="grid min-w-0 grid-cols-1 gap-3">
        <QuickActions user={user} />
        {loaded && (
          <StatCards
            activeProjects={activeProjectCount(loaded.projects)}
            newThisWeek={field.newThisWeek}
            tasks={loaded.tasks}
            photos={loaded.photos}
          />
        )}
      </div>
      {loaded ? (
        <>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
            <MultiProjectOverview
              projects={loaded.projects}
              showBudget={finance}
              linkProjects={linkProjects}
              now={now}
              timeZone={timeZone}
              className="lg:col-span-2"
            />
            <RecentActivity query={activity} offline={offline} now={now} />
          </div>
          <ActiveProjects
            projects={loaded.projects}
            now={now}
            timeZone={timeZone}
            linkProjects={linkProjects}
          />
        </>
      ) : (
        <FieldPlaceholder />
      )}
    </>
  );
}

function TasksTab({ db, user, write, now }: FieldTabProps) {
  const timeZone = user.companyTimeZone;
  const field = useFieldData(db, now, timeZone);
  const projectNames = useMemo(
    () => new Map((field.projects ?? []).map((p) => [p.id, p.name] as const)),
    [field.projects],
  );
  const ctx: TaskListContext = { now, timeZone, projectNames };

  const toggle = useCallback(
    async (task: DashboardTaskView) => {
      const status = task.status === 'completed' ? 'pending' : 'completed';
      try {
        await write('tasks', 'patch', task.id, { status });
      } catch (err) {
        toast({
          title: 'Failed to update task status',
          description: `Failed to update task: ${serverMessage(err)}`,
          variant: 'destructive',
        });
      }
    },
    [write],
  );
  const canUpdateTasks = user.grants.includes('tasks:update');
  return (
    <>
      <div className="grid min-w-0 grid-cols-1 gap-4">
        <TaskSummary tasks={field.tasks} />
        <TodaysTasks
          tasks={field.tasks}
          ctx={ctx}
          onToggle={canUpdateTasks ? (t) => void toggle(t) : undefined}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ExpiredTasks tasks={field.tasks} ctx={ctx} />
        <NextPriorityTasks tasks={field.tasks} ctx={ctx} />
      </div>
    </>
  );
}

/**
 * The field tabs while the device's first download runs: its progress over one tall placeholder. Widgets
 * drawn from a half-filled mirror would say "No projects yet" (untrue) and then grow row by row, pushing
 * everything below them down the screen; this block is replaced once, by the finished dashboard.
 */
function DashboardDownloading({ download }: { download: FirstDownload }) {
  return (
    <div data-testid="first-download" aria-busy="true" className="grid content-start gap-4">
      <FirstDownloadProgress download={download} />
      <FieldPlaceholder />
    </div>
  );
}

/** Grey blocks where the stat cards and widgets will be, tall enough that nothing below jumps when they come. */
function FieldPlaceholder() {
  return (
    <div
      aria-hidden="true"
      data-testid="dashboard-placeholder"
      className="grid min-h-[70vh] content-start gap-4"
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((card) => (
          <div key={card} className="h-28 animate-pulse rounded-lg bg-slate-200" />
        ))}
      </div>
      <div className="h-80 animate-pulse rounded-lg bg-slate-200" />
    </div>
  );
}
