import type { Database } from '../db/database.ts';
import { io, type Op } from '../db/op.ts';
import { valueStmt, type SqlConn } from '../db/sql.ts';
import { HttpError } from '../http.ts';

type Listener = (version: number) => void;

interface Channel {
  listeners: Set<Listener>;
  last: number;
  timer: NodeJS.Timeout;
}

const COMPANY_VERSION = valueStmt<number>('SELECT last_version FROM companies WHERE id = ?');

/** A company's latest version (0 when it is unknown). */
export function* companyVersion(c: { sql: SqlConn }, companyId: string): Op<number> {
  return (yield* io(c.sql.get(COMPANY_VERSION, [companyId]))) ?? 0;
}

/** How often a company with listeners re-reads its version: catches writes no code path poked about. */
export const POLL_MS = 500;

/**
 * Pokes for GET /api/sync/events (sync/SPEC.md L10): per company, the listeners of its latest version.
 * Writers poke after their commit (push, REST `mutate`, blob uploads) so a device hears at once; on
 * PostgreSQL the poke is also announced to the other API processes (LISTEN/NOTIFY), whose listeners hear it
 * the same way. A poll per company with listeners catches any other writer (a script, a lost notification).
 * A poke for a company nobody listens to here costs one map lookup.
 */
export class SyncNotifier {
  private readonly channels = new Map<string, Channel>();
  private readonly pollMs: number;
  /** Hearing the other processes' pokes: set up with the first subscriber. */
  private hearing: Promise<unknown> | undefined;

  /** `pollMs: 0` turns the poll off (a test that must see the pokes alone). */
  constructor(
    private readonly database: Database,
    options: { pollMs?: number } = {},
  ) {
    this.pollMs = options.pollMs ?? POLL_MS;
  }

  /** The company's latest version now. */
  current(companyId: string): Promise<number> {
    return this.database.read((c) => companyVersion(c, companyId));
  }

  /** Calls `listener` with each new latest version; returns the unsubscribe function. */
  async subscribe(companyId: string, listener: Listener): Promise<() => void> {
    // Heard before the version is read: a change in between is not missed.
    await (this.hearing ??= this.database.onAnnounce((id) => this.check(id)));
    let channel = this.channels.get(companyId);
    if (!channel) {
      const last = await this.current(companyId);
      channel = this.channels.get(companyId); // another stream of the company may have opened meanwhile
      if (!channel) {
        const timer = setInterval(() => this.check(companyId), this.pollMs || 2 ** 31 - 1);
        timer.unref();
        channel = { listeners: new Set(), last, timer };
        this.channels.set(companyId, channel);
      }
    }
    channel.listeners.add(listener);
    return () => {
      const c = this.channels.get(companyId);
      if (!c) return;
      c.listeners.delete(listener);
      if (c.listeners.size === 0) {
        clearInterval(c.timer);
        this.channels.delete(companyId);
      }
    };
  }

  /** Number of open streams of a company (tests, diagnostics). */
  listenerCount(companyId: string): number {
    return this.channels.get(companyId)?.listeners.size ?? 0;
  }

  /** Call after a commit that may have raised the company's version: here and in the other processes. */
  poke(companyId: string): void {
    this.database.announce(companyId);
    this.check(companyId);
  }

  /** Reads the company's version when someone here listens, and tells them when it went up. */
  private check(companyId: string): void {
    const channel = this.channels.get(companyId);
    if (!channel) return;
    if (!this.database.open) {
      clearInterval(channel.timer);
      this.channels.delete(companyId);
      return;
    }
    this.current(companyId).then(
      (version) => {
        // Reads finish in any order; a version only goes up, so an older answer is no news.
        if (version <= channel.last) return;
        channel.last = version;
        for (const listener of channel.listeners) listener(version);
      },
      () => undefined, // closed meanwhile, or unreachable: the next poll or poke reads again
    );
  }
}

const notifiers = new WeakMap<Database, SyncNotifier>();

/** The notifier of a database (one per process and database). */
export function syncNotifier(database: Database): SyncNotifier {
  let n = notifiers.get(database);
  if (!n) notifiers.set(database, (n = new SyncNotifier(database)));
  return n;
}

/**
 * Caps on open event streams (README "Limits"). Each holds a socket and a file descriptor for as long as
 * the client stays, so one session must not open thousands. The sync engine opens one stream per browser
 * profile (its leader tab), so three cover a phone, a tablet and a desktop; a fourth stream of the same user
 * closes that user's oldest (a reloaded page or a dead connection is usually that one; a closed
 * EventSource reconnects by itself). Past the total, new streams are refused with 429: other users'
 * streams are never closed to make room.
 */
export const STREAM_LIMITS = { perUser: 3, total: 2000 };

export interface StreamSlot {
  /** True once the server wants this stream ended (cap, sign-out, shutdown). */
  readonly closed: boolean;
  /** Called once when the server wants the stream ended. */
  onClose(listener: () => void): void;
  /** The stream has ended: frees its slot. */
  release(): void;
}

interface OpenStream {
  userId: string;
  sessionId: string;
  close(): void;
}

/** The open event streams of one database (one per process), for caps, sign-out and shutdown. */
export class EventStreams {
  /** In opening order, oldest first. */
  private readonly streams = new Set<OpenStream>();
  private shuttingDown = false;

  /** Registers a new stream of `user`, closing the user's oldest past the cap; throws 429/503 when full. */
  open(user: { id: string; sessionId: string }): StreamSlot {
    if (this.shuttingDown) {
      throw new HttpError(503, 'SHUTTING_DOWN', 'The server is restarting. Try again shortly.', undefined, {
        'Retry-After': '5',
      });
    }
    const mine = [...this.streams].filter((s) => s.userId === user.id);
    for (const old of mine.slice(0, Math.max(0, mine.length - STREAM_LIMITS.perUser + 1))) old.close();
    if (this.streams.size >= STREAM_LIMITS.total) {
      throw new HttpError(
        429,
        'TOO_MANY_STREAMS',
        'Too many open event streams. Try again later.',
        undefined,
        {
          'Retry-After': '60',
        },
      );
    }
    let closed = false;
    const listeners: (() => void)[] = [];
    const entry: OpenStream = {
      userId: user.id,
      sessionId: user.sessionId,
      close: () => {
        this.streams.delete(entry);
        if (closed) return;
        closed = true;
        for (const l of listeners) l();
      },
    };
    this.streams.add(entry);
    return {
      get closed() {
        return closed;
      },
      onClose: (listener) => {
        if (closed) listener();
        else listeners.push(listener);
      },
      release: () => this.streams.delete(entry),
    };
  }

  /** Open streams of a user (tests, diagnostics). */
  count(userId?: string): number {
    return [...this.streams].filter((s) => userId === undefined || s.userId === userId).length;
  }

  /** Ends the streams of a session that was signed out. */
  closeSession(sessionId: string): void {
    for (const s of [...this.streams]) if (s.sessionId === sessionId) s.close();
  }

  /** Ends every stream of a user whose sessions were all ended (a password change). */
  closeUser(userId: string): void {
    for (const s of [...this.streams]) if (s.userId === userId) s.close();
  }

  /** Ends every stream and refuses new ones, so the HTTP server can finish closing. */
  closeAll(): void {
    this.shuttingDown = true;
    for (const s of [...this.streams]) s.close();
  }
}

const registries = new WeakMap<Database, EventStreams>();

/** The open event streams of a database (one registry per process and database). */
export function eventStreams(database: Database): EventStreams {
  let r = registries.get(database);
  if (!r) registries.set(database, (r = new EventStreams()));
  return r;
}
