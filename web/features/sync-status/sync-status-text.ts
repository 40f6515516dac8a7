import { formatDistanceStrict } from 'date-fns';
import type { SyncStatus } from '#sync/engine.ts';

/** DESIGN.md section 12: warn when the oldest unsent change is older than 3 days. */
export const STALE_PENDING_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * What a crew member must tell apart at a glance in the top bar (ADR 007, issue 12): no connection, work
 * waiting to be sent, work being sent (or the device catching up), everything sent, or nothing waiting to
 * be sent while the device's download has not finished (sync/SPEC.md C21: its data is not all there).
 */
export type SyncPhase = 'offline' | 'waiting' | 'syncing' | 'synced' | 'incomplete';

export interface SyncStatusText {
  online: boolean;
  phase: SyncPhase;
  /**
   * The phase's short visible word under the header icon on a phone: 'Offline', 'Waiting', 'Syncing',
   * 'All sent', 'Not synced', or 'N not saved' when nothing waits but the server refused changes (Sync
   * issues).
   */
  word: string;
  /** 'Online' | 'Offline' | 'Syncing...' */
  state: string;
  /** 'N changes waiting', or null when none. */
  changes: string | null;
  /**
   * The queue in the details: 'N changes waiting, the oldest made 2 hours ago', 'All changes sent', or
   * 'Nothing waiting to send' when a
   * refused change is in Sync issues (it was sent and not saved).
   */
  queue: string;
  /** 'N photos waiting', or null when none. */
  photos: string | null;
  /** 'Last synced 5 minutes ago', 'Not synced yet', or that the download has not finished. */
  lastSynced: string;
  /** Set when the oldest unsent change is older than 3 days. */
  staleWarning: string | null;
  /** 'N sync issues', or null when none. */
  issues: string | null;
  /** Why the queue waits (signed out, wrong account, app too old), or the last error; null when fine. */
  problem: string | null;
  /** The short label of the top-bar button. */
  summary: string;
}

const PHASE_WORDS: Record<SyncPhase, string> = {
  offline: 'Offline',
  waiting: 'Waiting',
  syncing: 'Syncing',
  synced: 'All sent',
  incomplete: 'Not synced',
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The texts the sync indicator shows for an engine status at time `now` (device epoch ms). `downloaded`:
 * whether the device's download has completed (C21); false makes an idle device 'Not synced', never
 * 'All sent' over a part of its data. Unknown (undefined) while it is read.
 */
export function describeSyncStatus(
  status: SyncStatus,
  now: number,
  options: { sessionOffline?: boolean; downloaded?: boolean } = {},
): SyncStatusText {
  const unfinished = options.downloaded === false;
  const online = status.online && !options.sessionOffline;
  const busy = online && (status.pushing || status.pulling);
  const state = !online ? 'Offline' : busy ? 'Syncing...' : 'Online';
  const changes = status.pending > 0 ? `${plural(status.pending, 'change', 'changes')} waiting` : null;
  const photos = status.blobsPending > 0 ? `${plural(status.blobsPending, 'photo', 'photos')} waiting` : null;
  const lastSynced = unfinished
    ? 'Your data has not finished downloading'
    : status.lastSyncedAt === null
      ? 'Not synced yet'
      : now - status.lastSyncedAt < 60_000
        ? 'Last synced just now'
        : `Last synced ${formatDistanceStrict(status.lastSyncedAt, now, { addSuffix: true })}`;
  const age = status.oldestPendingAt === null ? 0 : now - status.oldestPendingAt;
  const staleWarning =
    status.pending > 0 && status.oldestPendingAt !== null && age > STALE_PENDING_MS
      ? `Your oldest unsent change is ${formatDistanceStrict(status.oldestPendingAt, now)} old. Connect to the internet so it reaches the server.`
      : null;
  const issues = status.issues > 0 ? plural(status.issues, 'sync issue', 'sync issues') : null;
  let problem: string | null = null;
  if (status.paused === 'unauthorized') problem = 'Sync is paused: sign in again to send your changes.';
  else if (status.paused === 'forbidden')
    problem = 'Sync is paused: this device is bound to another account.';
  else if (status.paused === 'schema') problem = 'Sync is paused: update the app (reload) to keep syncing.';
  else if (status.error && status.error.kind !== 'network') problem = `Sync failed: ${status.error.message}`;
  const phase: SyncPhase = !online
    ? 'offline'
    : busy
      ? 'syncing'
      : status.pending > 0 || status.blobsPending > 0
        ? 'waiting'
        : unfinished
          ? 'incomplete'
          : 'synced';
  // Nothing waits, but a refused change is not "all sent": it was sent and not saved.
  const refused = status.issues > 0;
  // Only photos waiting: the phone header has no count badge for them (that counts changes), so its word
  // gives the number.
  const word =
    phase === 'synced' && refused
      ? `${status.issues} not saved`
      : phase === 'waiting' && status.pending === 0 && status.blobsPending > 0
        ? plural(status.blobsPending, 'photo', 'photos')
        : PHASE_WORDS[phase];
  // The age of the oldest unsent change is always there (DESIGN.md section 7), not only once it is stale.
  const oldest =
    status.oldestPendingAt === null
      ? ''
      : age < 60_000
        ? ', the oldest made just now'
        : `, the oldest made ${formatDistanceStrict(status.oldestPendingAt, now, { addSuffix: true })}`;
  const queue = changes ? changes + oldest : refused ? 'Nothing waiting to send' : 'All changes sent';
  const summary =
    phase === 'synced' || phase === 'incomplete'
      ? word
      : changes
        ? `${state} · ${status.pending} waiting`
        : phase === 'waiting' && photos
          ? photos
          : state;
  return {
    online,
    phase,
    word,
    state,
    changes,
    queue,
    photos,
    lastSynced,
    staleWarning,
    issues,
    problem,
    summary,
  };
}
