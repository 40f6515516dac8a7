import { useEffect, useState } from 'react';
import type { Query, QueryClient } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistQueryClientOptions,
} from '@tanstack/react-query-persist-client';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { rememberedUserId } from './session-user.ts';

/**
 * The office screens' reads (admin, finance, health) go through TanStack Query, not the Dexie mirror
 * (DESIGN.md section 8). Opened offline, such a screen shows the last answers it had, so the answers of
 * the queries that opt in (`meta: PERSISTED`) are kept per user in IndexedDB and dropped when the user's
 * session ends (sign-out, or the server saying 401): an admin's lists never outlive their session on a
 * shared device.
 */

/** Put on a query (`meta: PERSISTED`) to keep its last answer for offline starts. */
export const PERSISTED = { persist: true } as const;

/** Bump when a persisted answer's shape changes: older caches are then dropped rather than misread. */
const CACHE_BUSTER = 'v1';
/** A cache older than this is not restored: an "as of" line a month old helps nobody. */
const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

const keyOf = (userId: string) => `queries:${userId}`;

let store: UseStore | null = null;
function idbStore(): UseStore {
  store ??= createStore('sitecommand-query-cache', 'queries');
  return store;
}

/** False where there is no IndexedDB (some tests, private modes that refuse it): nothing is kept. */
export function canPersistQueries(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** A refetch that failed offline keeps its last answer: that answer stays kept too. */
const shouldPersist = (query: Pick<Query, 'meta' | 'state'>) =>
  query.meta?.persist === true && query.state.data !== undefined;

/** The users whose cache was dropped while a throttled write may still be on its way. */
const forgotten = new Set<string>();

function optionsFor(queryClient: QueryClient, userId: string): PersistQueryClientOptions {
  const persister = createAsyncStoragePersister({
    key: keyOf(userId),
    storage: {
      getItem: (key) => get<string>(key, idbStore()).then((v) => v ?? null),
      // The persister writes at most once a second: a write that fires after the session ended must not
      // bring back the cache that was just removed. Nor may a tab that still shows this user while another
      // tab signed out or signed in someone else (the cookie is the browser's, not the tab's): what it
      // fetched since then came under the other session, and must not be kept as this user's answers.
      setItem: (key, value: string) =>
        forgotten.has(userId) || rememberedUserId() !== userId
          ? Promise.resolve()
          : set(key, value, idbStore()),
      removeItem: (key) => del(key, idbStore()),
    },
  });
  return {
    queryClient,
    persister,
    maxAge: MAX_AGE_MS,
    buster: CACHE_BUSTER,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
  };
}

/** Removes a user's kept answers (their session ended). */
export async function forgetPersistedQueries(userId: string): Promise<void> {
  if (!canPersistQueries()) return;
  forgotten.add(userId);
  try {
    await del(keyOf(userId), idbStore());
  } catch {
    // storage unavailable: nothing was kept either
  }
}

/**
 * Restores `userId`'s kept answers into `queryClient` and keeps them up to date while that user is signed
 * in. Returns true while restoring: render the screens under `IsRestoringProvider` with it so their
 * queries wait for the restored answers instead of starting empty.
 */
export function usePersistedQueries(queryClient: QueryClient, userId: string | null): boolean {
  const [restoredFor, setRestoredFor] = useState<string | null>(null);
  const enabled = userId !== null && canPersistQueries();
  useEffect(() => {
    if (!enabled || userId === null) return;
    forgotten.delete(userId);
    const options = optionsFor(queryClient, userId);
    let stop = () => {};
    let cancelled = false;
    void persistQueryClientRestore(options)
      .catch(() => undefined)
      .finally(() => {
        if (cancelled) return;
        // A kept answer is what the screen shows until the server answers, never instead of asking it: one
        // fetched under 5 s before a reload still counted as fresh, so a list changed in those seconds
        // (every notification marked read, then a reload) came back as it was and stayed so.
        void queryClient.invalidateQueries({
          predicate: (q) => q.meta?.persist === true,
          refetchType: 'none',
        });
        stop = persistQueryClientSubscribe(options);
        setRestoredFor(userId);
      });
    return () => {
      cancelled = true;
      stop();
    };
  }, [enabled, queryClient, userId]);
  return enabled && restoredFor !== userId;
}
