import type Database from 'better-sqlite3';
import type { Db } from '../db/index.ts';

type Listener = (version: number) => void;

interface Channel {
  listeners: Set<Listener>;
  last: number;
  timer: NodeJS.Timeout;
}

/** How often a company with listeners re-reads its version: catches writes no code path poked about. */
export const POLL_MS = 500;

/**
 * Pokes for GET /api/sync/events (sync/SPEC.md L10): per company, the listeners of its latest version.
 * Writers poke after their commit (push, REST `mutate`, blob uploads) so a device hears at once; a poll
 * per company with listeners catches any other writer (another process, a script). A poke for a company
 * nobody listens to costs one map lookup.
 */
export class SyncNotifier {
  private readonly channels = new Map<string, Channel>();
  private readonly read: Database.Statement<[string], { v: number }>;

  constructor(private readonly sqlite: Database.Database) {
    this.read = sqlite.prepare('SELECT last_version AS v FROM companies WHERE id = ?');
  }

  /** The company's latest version now. */
  current(companyId: string): number {
    return this.read.get(companyId)?.v ?? 0;
  }

  /** Calls `listener` with each new latest version; returns the unsubscribe function. */
  subscribe(companyId: string, listener: Listener): () => void {
    let channel = this.channels.get(companyId);
    if (!channel) {
      const timer = setInterval(() => this.poke(companyId), POLL_MS);
      timer.unref();
      channel = { listeners: new Set(), last: this.current(companyId), timer };
      this.channels.set(companyId, channel);
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

  /** Call after a commit that may have raised the company's version. */
  poke(companyId: string): void {
    const channel = this.channels.get(companyId);
    if (!channel) return;
    if (!this.sqlite.open) {
      clearInterval(channel.timer);
      this.channels.delete(companyId);
      return;
    }
    const version = this.current(companyId);
    if (version === channel.last) return;
    channel.last = version;
    for (const listener of channel.listeners) listener(version);
  }
}

const notifiers = new WeakMap<Database.Database, SyncNotifier>();

/** The notifier of a database connection (one per process and database). */
export function syncNotifier(db: Db): SyncNotifier {
  let n = notifiers.get(db.$client);
  if (!n) notifiers.set(db.$client, (n = new SyncNotifier(db.$client)));
  return n;
}
