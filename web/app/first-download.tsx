import { Fragment, type ComponentType, type ReactNode } from 'react';
import { useInRouterContext, useLocation } from 'react-router-dom';
import { Spinner } from '#web/components/spinner.tsx';
import { LogsSkeleton } from '#web/features/logs/components/logs-skeleton.tsx';
import { ScheduleSkeleton } from '#web/features/schedule/components/schedule-skeleton.tsx';
import type { SyncStatus } from '#sync/engine.ts';
import { useLiveQuery } from '#web/lib/live-query.ts';
import { useFirstDownloadDone, useSyncDb, useSyncStatus } from './local-data.tsx';

export interface FirstDownload {
  /** The device has completed a pull to the end at least once; undefined while that is being read. */
  done: boolean | undefined;
  /** Rows the download has brought so far, in this session and in the ones it was cut in before. */
  rows: number;
  online: boolean;
  /** Why the download is stuck (paused, or failing for a reason other than the network), or null. */
  problem: string | null;
}

/**
 * Whether this device's first download has completed. Read from the device database (a pull that reached
 * the end stores `lastSyncedAt`), so a later start, offline too, never waits for the network again.
 */
export function useFirstDownload(): FirstDownload {
  const status = useSyncStatus();
  const done = useFirstDownloadDone();
  // What the download has brought, kept with its cursor (SPEC C10): a tab opened again after a cut goes on
  // from it rather than from 0. This session's count is the same or smaller, save after a reset emptied
  // the mirror; the larger is shown, so the number never goes back while the user watches.
  // Read only while the download is not known to be done: after it, every sync cycle writes the state,
  // and nothing here shows the count any more.
  const db = useSyncDb();
  const kept = useLiveQuery(
    async () => (done === true ? 0 : ((await db.meta.get('state'))?.downloadedRows ?? 0)),
    [db, done],
  );
  const rows = Math.max(kept ?? 0, status.rowsDownloaded);
  return { done, rows, online: status.online, problem: downloadProblem(status) };
}

/**
 * Why the first download is stuck, in sentences (the sync error's words are one of them: "The server is
 * not available right now, error 502."), or null while it is only waiting for the network.
 */
export function downloadProblem(status: Pick<SyncStatus, 'paused' | 'error'>): string | null {
  if (status.paused !== null) return 'Sync is paused; sign in again or reload the app to download your data.';
  if (!status.error || status.error.kind === 'network') return null;
  const words = status.error.message.trim();
  const sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}${/[.!?]$/.test(words) ? '' : '.'}`;
  return `The download did not finish. ${sentence} It is tried again automatically.`;
}

/**
 * 12345 -> "12,345". Not `toLocaleString`: its first call loads the ICU number formatter, 12 ms here and
 * about 50 ms on a phone, in the middle of the first screen's first paint (budget B10).
 */
const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The words of the loading state, for screens and tests. */
export function firstDownloadText({ rows, online }: Pick<FirstDownload, 'rows' | 'online'>): string {
  const count = rows === 1 ? '1 row' : `${withThousands(rows)} rows`;
  if (!online && rows === 0) return 'Waiting for a connection to download your data for the first time...';
  // Cut part-way (SPEC C21): what is on the device is part of the data, and the download is not over.
  if (!online)
    return `The download of your data did not finish: ${count} so far. It goes on when the connection returns.`;
  return `Downloading your data... ${count} so far`;
}

/** The download's progress line and, when it is stuck, why: the gate's and the dashboard's field tabs'. */
export function FirstDownloadProgress({
  download,
  centered = false,
}: {
  download: FirstDownload;
  centered?: boolean;
}) {
  return (
    <>
      <Spinner
        label={download.done === undefined ? 'Loading...' : firstDownloadText(download)}
        className={centered ? 'flex-col text-center' : 'justify-start'}
      />
      {download.problem && (
        <p className={`text-sm text-red-700 ${centered ? 'mt-4 text-center' : ''}`}>{download.problem}</p>
      )}
    </>
  );
}

/** Screens that give their own loading skeleton (spec 02 section 2: /schedule, /logs), by path. */
const SCREEN_SKELETONS: Record<string, ComponentType> = {
  '/schedule': ScheduleSkeleton,
  '/logs': LogsSkeleton,
};

function RouteSkeleton() {
  const Skeleton = SCREEN_SKELETONS[useLocation().pathname];
  return Skeleton ? <Skeleton /> : null;
}

/**
 * Wraps a screen that reads the device mirror: until the first download completes it shows a loading
 * state with progress instead of the screen, whose empty state ("No active projects") would be untrue and
 * invite duplicates (DESIGN.md section 7). A screen's own skeleton, when it has one, sits under the
 * progress line.
 */
export function FirstDownloadGate({
  children,
  frame: Frame = Fragment,
}: {
  children: ReactNode;
  /** The screen's frame (its heading) around the progress, so the heading stays while the data comes. */
  frame?: ComponentType<{ children: ReactNode }>;
}) {
  const download = useFirstDownload();
  const inRouter = useInRouterContext();
  if (download.done === true) return <>{children}</>;
  return (
    <Frame>
      <div className="p-10" data-testid="first-download" aria-busy="true">
        <FirstDownloadProgress download={download} centered />
        {inRouter && download.done === false && (
          <div className="mt-6">
            <RouteSkeleton />
          </div>
        )}
      </div>
    </Frame>
  );
}
