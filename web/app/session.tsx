import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { IsRestoringProvider, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { flushSync } from 'react-dom';
import { SESSION_USER_ELEMENT_ID } from '#shared/page-bootstrap.ts';
import { SIGNED_OUT_COOKIE } from '#shared/sign-out.ts';
import { clearSessionEnded, noteSigningOut, recordSessionEnded } from './session-ended.ts';
import { apiRequest, isNetworkError, SESSION_USER_QUERY_KEY, throwIfNotOk } from '#web/lib/api.ts';
import { toast } from '#web/components/ui/use-toast.ts';
import { roleChangeNotice } from './role-change.ts';
import { forgetPersistedQueries, usePersistedQueries } from '#web/lib/query-persist.ts';
import {
  forgetUser,
  LAST_USER_KEY,
  rememberedUser,
  rememberUser,
  type CurrentUser,
  type SessionUser,
} from '#web/lib/session-user.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** Query key of the current user (spec 01 section 7: GET /api/auth/user). */
export const USER_QUERY_KEY = SESSION_USER_QUERY_KEY;

/** Answers that mean "the server is not reachable" rather than "you are signed out". */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Reads the current user. A 401 means signed out (and forgets the remembered user). When no answer comes
 * (offline, server unreachable), the last signed-in user of this device is used, marked `offline`, so a
 * cold start without network opens that user's app from the local mirror (DESIGN.md section 12).
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  let res: Response;
  try {
    res = await fetch(USER_QUERY_KEY[0], { credentials: 'include', signal });
  } catch (err) {
    const remembered = isNetworkError(err) ? rememberedUser() : null;
    if (remembered) return { ...remembered, offline: true };
    throw err;
  }
  if (res.status === 401) {
    const remembered = rememberedUser();
    if (remembered) recordSessionEnded(remembered.email);
    forgetUser();
    return null;
  }
  if (UNREACHABLE_STATUSES.has(res.status)) {
    const remembered = rememberedUser();
    if (remembered) return { ...remembered, offline: true };
  }
  await throwIfNotOk(res);
  const user = (await res.json()) as SessionUser;
  rememberUser(user);
  return user;
}

/**
 * How often an open app asks the server who its user is. A role or permission change takes effect on the
 * server at the user's next request; this brings the new menu (and the end of a deactivated user's
 * session) to an app left open, without a reload (issue 13).
 */
export const SESSION_RECHECK_MS = 15_000;

/** Spec 01 section 9: the user request is retried up to 2 times, never on 401. */
export function retryUserQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof Error && error.message.startsWith('401')) return false;
  return failureCount < 2;
}

/** How the current user is asked for: by the session below, and by main.tsx before the first render. */
export const USER_QUERY = {
  queryKey: USER_QUERY_KEY,
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchCurrentUser(signal),
  retry: retryUserQuery,
  retryDelay: (attempt: number) => Math.min(500 * 2 ** attempt, 2_000),
};
const USER_FRESH_MS = 3_000;

/**
 * Starts the session request before React renders: the first screen waits for its answer, and asked from
 * the session's first effect it would start only after React's first commit (0.2-0.6 s later on a phone).
 * When the server wrote the signed-in user into the page (a navigation with a session), that is the
 * answer, and no request waits at all.
 */
export function prefetchCurrentUser(queryClient: QueryClient): void {
  const given = sessionFromPage();
  if (given === undefined) {
    void queryClient.prefetchQuery(USER_QUERY);
    return;
  }
  // The server's answer for this page's request, taken as GET /api/auth/user's (fetchCurrentUser).
  if (given) rememberUser(given);
  else forgetUser();
  queryClient.setQueryData(USER_QUERY_KEY, given);
}

/**
 * The session the server wrote into this page (shared/page-bootstrap.ts), read once: the user, null when
 * the page's request was signed out, undefined when the page carries none (the service worker's copy).
 */
function sessionFromPage(): SessionUser | null | undefined {
  const block = typeof document === 'undefined' ? null : document.getElementById(SESSION_USER_ELEMENT_ID);
  if (!block) return undefined;
  // Once: a user who signs out and in again in this tab is never taken from the page again.
  block.remove();
  try {
    const user = JSON.parse(block.textContent ?? '') as Partial<SessionUser> | null;
    if (user === null) return null;
    return typeof user.id === 'string' && typeof user.companyId === 'string'
      ? (user as SessionUser)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Sets `SIGNED_OUT_COOKIE` for this site (a year: it stays until a request reaches the server). */
export function markSignedOut(): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SIGNED_OUT_COOKIE}=1; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

type SignOutHook = () => Promise<void> | void;

export interface SessionValue {
  user: CurrentUser | null;
  status: SessionStatus;
  /** True while the app runs on the remembered user because the server cannot be reached. */
  offline: boolean;
  /** Logs out (POST /api/auth/logout, failures ignored), stops local sync, then goes to /login. */
  signOut(): Promise<void>;
  /** After a successful sign-in: stores the user, remembers it for offline starts, asks for persistent storage. */
  signedIn(user: SessionUser): void;
  /** Re-reads the current user from the server. */
  refresh(): Promise<void>;
  /**
   * The user signed out in this tab (Sign Out), as opposed to a session that ended by itself: the screen
   * they left is not a link to come back to after the next sign-in, which may be someone else's.
   */
  signedOutHere: boolean;
  /**
   * Sign-out has begun and the logout call is on its way: the signed-in screens are taken down first, so
   * nothing asks the server under a session that is ending (a 401 in the console for every late query).
   */
  signingOut: boolean;
  /** Runs `hook` at sign-out before the logout call (the local-data layer stops the sync engine here). */
  onSignOut(hook: SignOutHook): () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Asks the browser to keep this origin's storage (the outbox is the only copy of unsent changes). */
export function requestPersistentStorage(): void {
  try {
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    if (storage?.persist) {
      void storage
        .persisted()
        .then((already) => (already ? true : storage.persist()))
        .catch(() => false);
    }
  } catch {
    // not supported: nothing to do
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const hooks = useRef(new Set<SignOutHook>());
  const [signedOutHere, setSignedOutHere] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const query = useQuery<CurrentUser | null>({
    ...USER_QUERY,
    // An answer a few seconds old is the one main.tsx asked for while React started: not asked twice.
    staleTime: USER_FRESH_MS,
    refetchOnMount: true,
    refetchOnWindowFocus: false,
    // Only while visible: a hidden tab checks when it is shown again (below).
    refetchInterval: (q) => (q.state.data && !q.state.data.offline ? SESSION_RECHECK_MS : false),
    refetchIntervalInBackground: false,
  });

  const user = query.data ?? null;
  const offline = user?.offline === true;

  // Back online after an offline start: ask the server who we are (a 401 then signs out cleanly).
  useEffect(() => {
    if (!offline) return;
    const recheck = () => void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    window.addEventListener('online', recheck);
    const timer = window.setInterval(() => {
      if (navigator.onLine) recheck();
    }, 30_000);
    return () => {
      window.removeEventListener('online', recheck);
      window.clearInterval(timer);
    };
  }, [offline, queryClient]);

  // A tab shown again may have missed role changes while hidden (the interval above pauses).
  const signedInOnline = user !== null && !offline;
  useEffect(() => {
    if (!signedInOnline) return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [signedInOnline, queryClient]);

  // Another tab of this browser signed in, signed out or met another user: the session cookie is the
  // browser's, so this tab's requests already go out under that session. Ask the server at once rather than
  // at the next check (up to SESSION_RECHECK_MS later), while this tab still shows the previous user.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === LAST_USER_KEY || e.key === null) {
        void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  // Another user (or nobody) now: drop every cached answer of the previous one (notifications, lists),
  // and the answers kept on the device for offline starts when that user's session ended.
  const lastUserId = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (query.isPending) return;
    const id = user?.id ?? null;
    const previous = lastUserId.current;
    if (previous !== undefined && previous !== id) {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
      if (previous !== null && id === null) void forgetPersistedQueries(previous);
    }
    lastUserId.current = id;
  }, [user?.id, query.isPending, queryClient]);
  // The same user with less than before (an admin changed their role): the screens have already followed;
  // say why something they were using is gone.
  const lastGrants = useRef<CurrentUser | null>(null);
  useEffect(() => {
    if (!user || user.offline) return;
    const before = lastGrants.current;
    lastGrants.current = user;
    const notice = before && before.id === user.id && !before.offline ? roleChangeNotice(before, user) : null;
    if (notice) toast({ title: 'Your role changed', description: notice });
  }, [user]);
  const restoring = usePersistedQueries(queryClient, query.isPending ? null : (user?.id ?? null));

  const signedIn = useCallback(
    (next: SessionUser) => {
      setSignedOutHere(false);
      noteSigningOut(false);
      clearSessionEnded();
      rememberUser(next);
      queryClient.setQueryData<CurrentUser | null>(USER_QUERY_KEY, next);
      requestPersistentStorage();
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    noteSigningOut(true);
    for (const hook of [...hooks.current]) {
      try {
        await hook();
      } catch (err) {
        console.warn('sign-out hook failed', err);
      }
    }
    // Screens down now (a screen or the bell mounting later would ask under the ended session), and the
    // questions already asked called off, before the session ends on the server.
    flushSync(() => setSigningOut(true));
    const others = {
      predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== USER_QUERY_KEY[0],
    };
    await queryClient.cancelQueries(others);
    // Set before the call, deleted by its answer: when the call cannot reach the server (no signal), the
    // next request this browser makes ends the session instead of using it (shared/sign-out.ts).
    markSignedOut();
    try {
      await apiRequest('POST', '/api/auth/logout');
    } catch {
      // Spec 02 section 2: the browser goes to /login even when the logout call fails.
    }
    const leaving = queryClient.getQueryData<CurrentUser | null>(USER_QUERY_KEY)?.id;
    if (leaving) await forgetPersistedQueries(leaving);
    forgetUser();
    setSignedOutHere(true);
    setSigningOut(false);
    queryClient.setQueryData<CurrentUser | null>(USER_QUERY_KEY, null);
    queryClient.removeQueries(others);
    navigate('/login', { replace: true });
  }, [navigate, queryClient]);

  const refresh = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
  }, [queryClient]);

  const onSignOut = useCallback((hook: SignOutHook) => {
    hooks.current.add(hook);
    return () => {
      hooks.current.delete(hook);
    };
  }, []);

  const status: SessionStatus = query.isPending
    ? 'loading'
    : user && !query.isError
      ? 'authenticated'
      : 'unauthenticated';

  const value = useMemo<SessionValue>(
    () => ({
      user: status === 'authenticated' ? user : null,
      status,
      offline,
      signOut,
      signedIn,
      refresh,
      onSignOut,
      signedOutHere,
      signingOut,
    }),
    [user, status, offline, signOut, signedIn, refresh, onSignOut, signedOutHere, signingOut],
  );
  return (
    <SessionContext.Provider value={value}>
      <IsRestoringProvider value={restoring}>{children}</IsRestoringProvider>
    </SessionContext.Provider>
  );
}

/** The session: `{ user, status, signOut() }` and friends. Must be used under `SessionProvider`. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

/** The signed-in user; throws when called outside the signed-in part of the app. */
export function useCurrentUser(): CurrentUser {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser needs a signed-in user');
  return user;
}
