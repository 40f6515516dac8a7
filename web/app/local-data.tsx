import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useLiveQuery } from '#web/lib/live-query.ts';
import type { MutationOp, SyncTable } from '#shared/sync-protocol.ts';
import { openSyncDb, type SyncDb } from '#sync/db.ts';
import { createSyncEngine, type SyncEngine, type SyncStatus } from '#sync/engine.ts';
import { loadMutationCheck, mutate, mutateAll, type BatchWrite, type MutationData } from '#sync/mutate.ts';
import { photosWithUnsentBytes } from '#sync/photo-lane.ts';
import { afterPaint } from '#web/lib/after-paint.ts';
import { setServerClockOffset } from '#web/lib/app-clock.ts';
import { firstCycleOver, precacheGate } from './precache-gate.ts';
import { checkForUpdate } from './pwa-state.ts';
import { noteWaiting } from './session-ended.ts';
import { requestPersistentStorage, useSession } from './session.tsx';

interface LocalData {
  db: SyncDb;
  /** Null in tests that mount the provider without an engine. */
  engine: SyncEngine | null;
}

const LocalDataContext = createContext<LocalData | null>(null);

const NO_ROWS: ReadonlySet<string> = new Set();
const PendingRowsContext = createContext<ReadonlySet<string>>(NO_ROWS);

/**
 * The ids of rows with unsent changes, for every "waiting to sync" marker of the app: ONE live query of
 * the outbox's rowId index (keys only), shared through context, rather than one query per card or row.
 */
function PendingRows({ db, children }: { db: SyncDb; children: ReactNode }) {
  const ids = useLiveQuery(async () => {
    const rows = new Set((await db.outbox.orderBy('rowId').uniqueKeys()).map(String));
    // A photo whose bytes have not reached the server is unsent work too: a log card showing it is not done.
    for (const id of await photosWithUnsentBytes(db)) rows.add(id);
    return rows;
  }, [db]);
  return <PendingRowsContext.Provider value={ids ?? NO_ROWS}>{children}</PendingRowsContext.Provider>;
}

/**
 * Whether the row `rowId` (of any mirrored table) has changes that have not reached the server yet, or any
 * of `related` (a log's photos: a photo counts while its bytes wait).
 */
export function useHasUnsentChanges(rowId: string, related: readonly string[] = NO_IDS): boolean {
  const pending = useContext(PendingRowsContext);
  return pending.has(rowId) || related.some((id) => pending.has(id));
}

const NO_IDS: readonly string[] = [];

/** How long sign-out waits for the engine to finish a running cycle. */
const STOP_WAIT_MS = 2_000;

/**
 * How long the engine waits for the first screen at most: a screen whose chunk cannot load (offline with
 * an old cache) shows an error instead, and the outbox must still be sent.
 */
export const FIRST_SCREEN_LIMIT_MS = 3_000;

interface FirstScreen {
  /** Whether the first screen has committed (or FIRST_SCREEN_LIMIT_MS passed). */
  shown: boolean;
  markShown: () => void;
}

/** Engines whose sign-out (or unmount) has begun: the first screen showing late must not start them. */
const STOPPED_ENGINES = new WeakSet<SyncEngine>();

const FirstScreenContext = createContext<FirstScreen>({ shown: true, markShown: () => {} });

/**
 * Rendered beside the route's screen inside the screen's Suspense boundary, so its effect runs once the
 * screen's chunk has loaded and the screen has committed: the sync engine and the office reads of the
 * shell (notifications) wait for it, so the first screen's bytes and main-thread time come first on a
 * slow phone (budget B10: the first pull is 160 KiB of the demo data).
 */
export function FirstScreenShown() {
  const { markShown } = useContext(FirstScreenContext);
  useEffect(markShown, [markShown]);
  return null;
}

/** Whether the signed-in app's first screen has been shown (true outside the provider). */
export function useFirstScreenShown(): boolean {
  return useContext(FirstScreenContext).shown;
}

export interface LocalDataProviderProps {
  scope: { companyId: string; userId: string };
  children: ReactNode;
  /** Shown while the database opens (one render). */
  fallback?: ReactNode;
  /** Test seams: an already open database, whether to run the sync engine, and how to make it. */
  db?: SyncDb;
  withEngine?: boolean;
  createEngine?: (db: SyncDb) => SyncEngine;
}

const defaultEngine = (db: SyncDb) => createSyncEngine({ db });

/**
 * Opens the Dexie mirror of the signed-in user in their company (one database per user and company, so
 * another user on this device never sees or sends this user's data), starts the sync engine once the first
 * screen is painted (`FirstScreenShown`: its lock, event stream and first pull are not needed for that
 * paint; budget B10), and
 * stops it at sign-out or when the user changes. The outbox stays in this user's own database after sign-out.
 */
export function LocalDataProvider({
  scope,
  children,
  fallback = null,
  db: givenDb,
  withEngine = true,
  createEngine = defaultEngine,
}: LocalDataProviderProps) {
  const { companyId, userId } = scope;
  const session = useSession();
  const onSignOut = session.onSignOut;
  const refreshSession = session.refresh;
  const [state, setState] = useState<LocalData | null>(null);
  const [shown, setShown] = useState(false);
  const markShown = useCallback(() => setShown(true), []);
  const firstScreen = useMemo(() => ({ shown, markShown }), [shown, markShown]);

  useEffect(() => {
    if (shown) return;
    const limit = setTimeout(markShown, FIRST_SCREEN_LIMIT_MS);
    return () => clearTimeout(limit);
  }, [shown, markShown]);

  const engineToStart = shown ? state?.engine : null;
  useEffect(() => {
    if (!engineToStart) return;
    // Sign-out may have begun while the first screen loaded: a stopped engine is never started again.
    return afterPaint(() => {
      if (!STOPPED_ENGINES.has(engineToStart)) engineToStart.start();
      // The check every local write runs, loaded apart from the first screen (ADR 025); a failure here is
      // tried again at the first write.
      void loadMutationCheck().catch(() => {});
    });
  }, [engineToStart]);

  useEffect(() => {
    const db = givenDb ?? openSyncDb({ companyId, userId });
    const engine = withEngine ? createEngine(db) : null;
    // The shell and the first screen render under this update: as a transition, in slices that yield to
    // input, rather than one task that blocked a phone for over 100 ms after the first paint (budget B10).
    startTransition(() => setState({ db, engine }));
    requestPersistentStorage();
    let stopped: Promise<void> | null = null;
    const stopEngine = () => {
      if (engine) STOPPED_ENGINES.add(engine);
      return (stopped ??= engine ? engine.stop() : Promise.resolve());
    };
    // Sign-out waits for a running cycle to end, but never long: a hung request must not block it.
    const stop = () => Promise.race([stopEngine(), new Promise<void>((r) => setTimeout(r, STOP_WAIT_MS))]);
    const unhook = onSignOut(stop);
    // A 401 during sync: the session may have ended elsewhere; a 403: the role may have changed. Ask the
    // server who we are.
    // A 426: this app is too old for the server; look for the new version once, so its prompt shows now.
    let tooOld = false;
    // The service worker's first install waits for this page's first sync cycle (precache-gate.ts).
    if (engine && firstCycleOver(engine.status.get())) precacheGate.firstDownloadSettled();
    // The screens' "today" follows the clock correction each completed pull measured (web/lib/app-clock.ts).
    const readClockOffset = () =>
      void db.meta.get('state').then(
        (m) => setServerClockOffset(m?.clockOffsetMs),
        () => {},
      );
    readClockOffset();
    let syncedAt = engine?.status.get().lastSyncedAt ?? null;
    const unsubscribe = engine?.status.subscribe((s) => {
      noteWaiting(s.pending + s.blobsPending);
      if (s.lastSyncedAt !== syncedAt) {
        syncedAt = s.lastSyncedAt;
        readClockOffset();
      }
      if (firstCycleOver(s)) precacheGate.firstDownloadSettled();
      if (s.paused === 'unauthorized' || s.paused === 'forbidden') void refreshSession();
      if (s.paused === 'schema' && !tooOld) checkForUpdate();
      tooOld = s.paused === 'schema';
    });
    return () => {
      unhook();
      unsubscribe?.();
      setState(null);
      // The database closes only once the engine has really stopped using it.
      void stopEngine().finally(() => {
        if (!givenDb) db.close();
      });
    };
  }, [companyId, userId, givenDb, withEngine, createEngine, onSignOut, refreshSession]);

  if (!state) return <>{fallback}</>;
  return (
    <LocalDataContext.Provider value={state}>
      <FirstScreenContext.Provider value={firstScreen}>
        <PendingRows db={state.db}>{children}</PendingRows>
      </FirstScreenContext.Provider>
    </LocalDataContext.Provider>
  );
}

function useLocalData(): LocalData {
  const value = useContext(LocalDataContext);
  if (!value) throw new Error('Local data hooks must be used inside <LocalDataProvider> (the signed-in app)');
  return value;
}

/** The open Dexie mirror (`SyncDb`) of the signed-in user and company; read it with `useLiveQuery`. */
export function useSyncDb(): SyncDb {
  return useLocalData().db;
}

/**
 * Whether this device's first download has completed; undefined while that is being read. Read from the
 * device database (a pull that reached the end stores `lastSyncedAt`), so it holds for every tab of the
 * device and after a restart offline.
 */
export function useFirstDownloadDone(): boolean | undefined {
  const db = useSyncDb();
  return useLiveQuery(async () => (await db.meta.get('state'))?.lastSyncedAt != null, [db]);
}

/** The open Dexie mirror, or null outside the signed-in app (a component mounted alone in a test). */
export function useOptionalSyncDb(): SyncDb | null {
  return useContext(LocalDataContext)?.db ?? null;
}

/** The running sync engine, or null (tests). */
export function useSyncEngine(): SyncEngine | null {
  return useLocalData().engine;
}

/** The running sync engine, or null when there is none or no local-data provider (screens mounted alone in tests). */
export function useOptionalSyncEngine(): SyncEngine | null {
  return useContext(LocalDataContext)?.engine ?? null;
}

export type LocalWrite = <T extends SyncTable>(
  table: T,
  op: MutationOp,
  rowId: string,
  data?: MutationData<T>,
  /** What the form loaded, for a patch of a list field (a log's photos, sync/SPEC.md W20). */
  base?: MutationData<T>,
) => Promise<void>;

/**
 * Writes through the sync module: the row and its outbox entry commit in one transaction (the change is
 * saved once this resolves), and the engine hears of it and pushes shortly after. Throws the sync module's
 * `LocalWriteError` for a write it refuses (bad shape, missing row).
 */
export function useLocalWrite(): LocalWrite {
  const db = useSyncDb();
  return useCallback<LocalWrite>(
    async (table, op, rowId, data, base) => {
      await mutate(db, table, op, rowId, data, base);
    },
    [db],
  );
}

export type LocalBatchWrite = (writes: readonly BatchWrite[]) => Promise<void>;

/**
 * Several writes as one user action (bulk edit): all rows and outbox entries commit in ONE transaction or
 * none do, and they leave in one push. Throws the sync module's `LocalWriteError` like `useLocalWrite`.
 */
export function useLocalBatchWrite(): LocalBatchWrite {
  const db = useSyncDb();
  return useCallback<LocalBatchWrite>(
    async (writes) => {
      await mutateAll(db, writes);
    },
    [db],
  );
}

const OFFLINE_STATUS: SyncStatus = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  pushing: false,
  pulling: false,
  pending: 0,
  oldestPendingAt: null,
  blobsPending: 0,
  issues: 0,
  lastSyncedAt: null,
  rowsDownloaded: 0,
  error: null,
  paused: null,
  leader: false,
};

const noopSubscribe = () => () => {};

/** The engine's status observable as React state (a fixed idle status when there is no engine). */
export function useSyncStatus(): SyncStatus {
  return useStatusOf(useSyncEngine());
}

/** The engine's status, or an idle one outside the signed-in app (a screen mounted alone in a test). */
export function useOptionalSyncStatus(): SyncStatus {
  return useStatusOf(useOptionalSyncEngine());
}

function useStatusOf(engine: SyncEngine | null): SyncStatus {
  return useSyncExternalStore(
    engine ? (fn) => engine.status.subscribe(fn) : noopSubscribe,
    engine ? engine.status.get : () => OFFLINE_STATUS,
    engine ? engine.status.get : () => OFFLINE_STATUS,
  );
}

/** Provides an already open database (and optionally an engine) without opening or syncing: tests, stories. */
export function StaticLocalData({
  db,
  engine = null,
  children,
}: {
  db: SyncDb;
  engine?: SyncEngine | null;
  children: ReactNode;
}) {
  const [value] = useState<LocalData>(() => ({ db, engine }));
  return (
    <LocalDataContext.Provider value={value}>
      <PendingRows db={db}>{children}</PendingRows>
    </LocalDataContext.Provider>
  );
}
