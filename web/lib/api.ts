import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';

/**
 * The calling convention of spec 01 section 7: JSON, credentials included, and on a non-2xx answer an
 * Error whose message is "{status}: {body text}" (the status text when the body is empty).
 */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  let text = '';
  try {
    text = await res.text();
  } catch {
    text = '';
  }
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

/** Sends a credentialed JSON request; resolves with the Response of a 2xx answer, throws otherwise. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

/** `apiRequest` and the parsed JSON body (null for an empty body). */
export async function apiJson<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The HTTP status at the front of an `apiRequest` error message, or null (e.g. a network failure). */
export function errorStatus(err: unknown): number | null {
  const m = err instanceof Error ? /^(\d{3}): /.exec(err.message) : null;
  return m ? Number(m[1]) : null;
}

/** A failed fetch (no answer at all: offline, DNS, aborted), as opposed to an HTTP error answer. */
export function isNetworkError(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof DOMException && err.name === 'AbortError');
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A query function reading the first query-key element as the URL (credentialed GET, parsed JSON). */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(String(queryKey[0]), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfNotOk(res);
    const text = await res.text();
    return (text ? JSON.parse(text) : null) as T;
  };
}

/** Spec 01 section 9: fresh for 5 s, no retry, no refetch on focus, no interval (but see ADR 032). */
export const QUERY_STALE_TIME_MS = 5_000;

/** How soon a read that got no answer at all asks again while its screen is open and visible. */
export const NO_ANSWER_REFETCH_MS = 10_000;

/** Query key of the signed-in user (GET /api/auth/user, spec 01 section 7). */
export const SESSION_USER_QUERY_KEY = ['/api/auth/user'] as const;

/**
 * Whether a failed call was refused for want of a permission (403 FORBIDDEN): the user's role may have
 * changed since the app last asked who they are. Other 403s (a device id bound to another account) are not.
 */
export function isPermissionRefusal(err: unknown): boolean {
  return errorStatus(err) === 403 && errorBody(err).json?.code === 'FORBIDDEN';
}

/** The body of an apiRequest error ("403: {json}"): its text, and its JSON object when it is one. */
function errorBody(err: unknown): { text: string; json: Record<string, unknown> | null } {
  const text = (err instanceof Error ? err.message : String(err)).replace(/^\d{3}: /, '');
  try {
    const parsed: unknown = JSON.parse(text);
    return { text, json: parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null };
  } catch {
    return { text, json: null };
  }
}

export function createQueryClient(): QueryClient {
  // A refusal for a permission asks the server who the user is now, so the screens and buttons follow a
  // role change at once instead of at the next periodic check (the session says what was lost).
  const onError = (err: unknown) => {
    if (isPermissionRefusal(err)) void client.invalidateQueries({ queryKey: SESSION_USER_QUERY_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'returnNull' }),
        staleTime: QUERY_STALE_TIME_MS,
        retry: false,
        refetchOnWindowFocus: false,
        // No interval, except for a read whose request got no answer (a dropped request on a bad signal):
        // its screen says it is offline and "will load when the connection returns", but the browser,
        // which never went offline, fires no `online` to refetch it, so it stayed so until the user left
        // the screen. It asks again every 10 s while shown (never in a hidden tab; paused while the
        // browser is offline), and stops once an answer comes.
        refetchInterval: (query) => (isNetworkError(query.state.error) ? NO_ANSWER_REFETCH_MS : false),
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/**
 * The words of a failed call for a person: the server's `{message}` out of an apiRequest error ("400:
 * {json}"), else the error's text; a call that never reached the server says so with `offline`.
 */
export function serverMessage(
  err: unknown,
  offline = 'The server could not be reached. Check the connection and try again.',
): string {
  if (isNetworkError(err)) return offline;
  const { text, json } = errorBody(err);
  if (typeof json?.message === 'string' && json.message) return json.message;
  return text || 'Something went wrong';
}
