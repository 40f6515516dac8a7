/**
 * How the sync module talks HTTP: JSON in and out, every failure sorted into what the engine does about it
 * (DESIGN.md section 7: back off and retry, pause until sign-in, or stop until the app is updated).
 */

/** What a failed request means for the queue. */
export type FailureKind =
  /** No answer (offline, connection reset, timeout): back off and retry. */
  | 'network'
  /** 5xx, 408, 429: the server is busy or broken for now: back off and retry. */
  | 'server'
  /** 401: the session is gone; the queue pauses until `resume()` after sign-in. Nothing is dropped. */
  | 'unauthorized'
  /** 403 on the sync endpoints: this client id belongs to another user or company; paused like 401. */
  | 'forbidden'
  /** 426: the server no longer speaks this schema version; sync stops until the app updates. */
  | 'schema'
  /** Any other answer the protocol does not allow; reported, backed off and retried. */
  | 'protocol';

/** A failed sync request, classified. */
export class SyncHttpError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    readonly code?: string,
    readonly body?: unknown,
    /** The server's Retry-After, in ms, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SyncHttpError';
  }
}

/** The fetch function the engine uses (the global one in browsers; tests wrap it to add a cookie). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A JSON answer the caller accepted: its status and parsed body (null when empty). */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

function kindOf(status: number): FailureKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 426) return 'schema';
  if (status >= 500 || status === 408 || status === 429) return 'server';
  return 'protocol';
}

/**
 * The words of a failed answer that carries no `{message}` (shown as "Sync failed: ..." and by the first
 * download): a proxy's HTML page while the server restarts (502, 503, 504) said only "HTTP 502".
 */
function wordsFor(status: number): string {
  return kindOf(status) === 'server'
    ? `The server is not available right now, error ${status}`
    : `The server gave an unexpected answer, error ${status}`;
}

/**
 * Sends a request and reads the JSON answer, giving up after `timeoutMs` (unless `init.signal` is given).
 * 2xx answers, and the statuses in `pass`, are returned; every other outcome throws a `SyncHttpError`
 * saying what kind of failure it is.
 */
export async function requestJson(
  fetchFn: FetchLike,
  url: string,
  init: RequestInit & { timeoutMs?: number },
  pass: readonly number[] = [],
): Promise<JsonAnswer> {
  const { timeoutMs = 30_000, ...rest } = init;
  let res: Response;
  try {
    // A caller's own signal replaces the fixed timeout (a photo upload gives up on a stall, SPEC C20).
    res = await fetchFn(url, { ...rest, signal: rest.signal ?? AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    // A request that ran out of time is told apart from one that could not be sent at all (SPEC C23).
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    throw new SyncHttpError(
      'network',
      `Network error: ${err instanceof Error ? err.message : String(err)}`,
      undefined,
      timedOut ? 'TIMEOUT' : undefined,
    );
  }
  let body: unknown = null;
  try {
    const text = await res.text();
    body = text ? JSON.parse(text) : null;
  } catch (err) {
    if (res.ok || pass.includes(res.status)) {
      // A 200 whose body broke off (the connection died mid-answer) is an answer never received.
      throw new SyncHttpError(
        'network',
        `Unreadable answer: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (res.ok || pass.includes(res.status)) return { status: res.status, body };
  const info = (body ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof info.code === 'string' ? info.code : undefined;
  const message = typeof info.message === 'string' ? info.message : wordsFor(res.status);
  const retryAfter = Number(res.headers.get('retry-after'));
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
  throw new SyncHttpError(kindOf(res.status), message, res.status, code, body, retryAfterMs);
}

/** Backoff bounds: the first retry waits about `baseMs`, doubling up to `maxMs`. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/** 1 s doubling up to 5 min: a device offline for a day retries every few minutes, not every second. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Exponential backoff with jitter for the `attempt`-th failure in a row (1-based): a delay drawn from the
 * upper half of the doubled window, so a fleet of devices that lost the server at once does not come back
 * in step, and a retry never fires at once.
 */
export function backoffDelay(
  attempt: number,
  random: () => number,
  options: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const window = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(window / 2 + random() * (window / 2));
}
